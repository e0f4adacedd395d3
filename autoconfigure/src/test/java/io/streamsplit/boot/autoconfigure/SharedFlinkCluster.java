package io.streamsplit.boot.autoconfigure;

import io.streamsplit.flink.cluster.StandaloneFlinkCluster;

/**
 * One standalone Flink session cluster for the remote-mode test classes of this module (they run one
 * after another in one JVM): a JobManager and two TaskManagers of two slots, each its own JVM. A class
 * leaves it as it found it: its jobs cancelled, two TaskManagers alive. Started on first use, killed
 * with the JVM (the cluster's shutdown hook).
 */
public final class SharedFlinkCluster {

    /**
     * {@code streamsplit.flink.remote.exclude-jars} for an application started from the test classpath: the
     * test JVM's own libraries need not travel (and the job shows it does not need them).
     */
    public static final String TEST_LIBRARIES = "junit-*.jar,assertj-*.jar,mockito-*.jar,byte-buddy*.jar,"
            + "testcontainers-*.jar,docker-java-*.jar,jna-*.jar,awaitility-*.jar";

    private static StandaloneFlinkCluster cluster;

    private SharedFlinkCluster() {}

    public static synchronized StandaloneFlinkCluster get() {
        if (cluster == null) {
            cluster = StandaloneFlinkCluster.builder()
                    .taskManagers(2)
                    .taskSlots(2)
                    // tests only: find a killed TaskManager in seconds, not after the 50 s default heartbeat timeout
                    .config("heartbeat.interval", "1000")
                    .config("heartbeat.timeout", "5000")
                    // the split endpoint and the autoscaler's view are as fresh as the REST metric store
                    .config("metrics.fetcher.update-interval", "500 ms")
                    // a standalone resource manager waits for TaskManagers only during its start-up period (by
                    // default slot.request.timeout, 5 min) and then fails slot requests no registered slot fits;
                    // the tests share this cluster for longer than that, and one of them (ClusterJobStateIT) needs
                    // a job whose subtasks wait for slots, as during that period or while a TaskManager restarts
                    .config("resourcemanager.standalone.start-up-time", "3600000")
                    .start();
        }
        return cluster;
    }
}
