package io.streamsplit.boot.autoconfigure.flink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The Flink session cluster the job is submitted to in remote mode, {@code streamsplit.flink.remote.*}. */
public class FlinkRemoteProperties {

    /** Host of the Flink JobManager's REST endpoint; required in remote mode. */
    private @Nullable String host;

    /** Port of the Flink JobManager's REST endpoint. */
    private int port = 8081;

    /**
     * Whether to ship the application's classpath with the job: its classes and every library the
     * job's code can need (class directories are packed into jars, a Spring Boot fat jar is opened);
     * Flink's own jars, Spring and the starter's Spring side stay behind.
     */
    private boolean shipClasspath = true;

    /** More jars to ship, as file paths (e.g. a library the job loads by reflection). */
    private List<String> jars = new ArrayList<>();

    /**
     * File-name patterns (globs, e.g. 'guava-*.jar') of classpath jars not to ship; the cluster must
     * then have them in its lib/ folder.
     */
    private List<String> excludeJars = new ArrayList<>();

    /**
     * How often the running application looks at its job on the cluster: it puts back a run the cluster
     * forgot (a JobManager restarted without high availability), follows a run another instance submitted,
     * and notices a cluster that stops answering.
     */
    private Duration watchInterval = Duration.ofSeconds(5);

    public @Nullable String getHost() {
        return host;
    }

    public void setHost(@Nullable String host) {
        this.host = host;
    }

    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    public boolean isShipClasspath() {
        return shipClasspath;
    }

    public void setShipClasspath(boolean shipClasspath) {
        this.shipClasspath = shipClasspath;
    }

    public List<String> getJars() {
        return jars;
    }

    public List<String> getExcludeJars() {
        return excludeJars;
    }

    public void setExcludeJars(List<String> excludeJars) {
        this.excludeJars = excludeJars;
    }

    public void setJars(List<String> jars) {
        this.jars = jars;
    }

    public Duration getWatchInterval() {
        return watchInterval;
    }

    public void setWatchInterval(Duration watchInterval) {
        this.watchInterval = watchInterval;
    }
}
