package io.streamsplit.boot.autoconfigure;

import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import io.streamsplit.flink.cluster.StandaloneFlinkClusterBuilder;

/**
 * One standalone Flink session cluster for the remote-mode test classes of this module (they run one
 * after another in one JVM): a JobManager and two TaskManagers of two slots, each its own JVM. A class
 * leaves it as it found it: its jobs cancelled, two TaskManagers alive. Started on first use, killed
 * with the JVM (the cluster's shutdown hook).
 */
public final class SharedFlinkCluster {

    /**
     * {@code streamsplit.flink.remote.exclude-jars} for an application started from the test classpath: the
     * test JVM's own libraries need not travel (and the job shows it does not need them). Each shipped jar
     * costs a submission ~44 ms: the JobManager puts every one into its blob server on its own.
     */
    public static final String TEST_LIBRARIES = "junit-*.jar,assertj-*.jar,mockito-*.jar,byte-buddy*.jar,"
            + "testcontainers-*.jar,docker-java-*.jar,jna-*.jar,awaitility-*.jar,duct-tape-*.jar,annotations-*.jar,"
            // Spring Boot's test libraries
            + "hamcrest-*.jar,xmlunit-*.jar,json-path-*.jar,json-smart-*.jar,accessors-smart-*.jar,jsonassert-*.jar,"
            + "android-json-*.jar,opentest4j-*.jar,apiguardian-*.jar,opentelemetry-sdk-testing-*.jar,"
            // the test cluster, the test registry and the embedded broker's server-side libraries
            + "streamsplit-flink-test-cluster-*.jar,streamsplit-test-schema-registry-*.jar,argparse4j-*.jar,"
            + "jopt-simple-*.jar,metrics-core-*.jar,pcollections-*.jar";

    private static final java.nio.file.Path CHECKPOINTS =
            java.nio.file.Path.of("target", "tmp", "shared-cluster-checkpoints").toAbsolutePath();

    private static StandaloneFlinkCluster cluster;

    /**
     * Tests only: 1 s / 5 s heartbeats, so a killed TaskManager is found in about a second (two failed
     * heartbeat RPCs), not the ~15 s Flink's 10 s interval takes or its 50 s timeout.
     */
    public static StandaloneFlinkClusterBuilder fastHeartbeats(StandaloneFlinkClusterBuilder builder) {
        return builder.config("heartbeat.interval", "1000").config("heartbeat.timeout", "5000");
    }

    /**
     * A cluster of its own for a test that kills its JobManager: fast heartbeats, one TaskManager of two slots that
     * tries its JobManager again every second, not Flink's 10 s, so that a fresh JobManager has its slots soon after it
     * answers (tests only).
     */
    public static StandaloneFlinkClusterBuilder forJobManagerRestarts(StandaloneFlinkClusterBuilder builder) {
        return fastHeartbeats(builder)
                .taskManagers(1)
                .taskSlots(2)
                .config("cluster.registration.error-delay", "1000")
                .config("cluster.registration.max-timeout", "2000");
    }

    private SharedFlinkCluster() {}

    public static synchronized StandaloneFlinkCluster get() {
        if (cluster == null) {
            // the brokers are new on every run: so must be the checkpoints the cluster keeps
            org.springframework.util.FileSystemUtils.deleteRecursively(CHECKPOINTS.toFile());
            cluster = fastHeartbeats(StandaloneFlinkCluster.builder())
                    .taskManagers(2)
                    .taskSlots(2)
                    // the split endpoint and the autoscaler's view are as fresh as the REST metric store
                    .config("metrics.fetcher.update-interval", "500 ms")
                    // a standalone resource manager waits for TaskManagers only during its start-up period (by
                    // default slot.request.timeout, 5 min) and then fails slot requests no registered slot fits;
                    // the tests share this cluster for longer than that, and one of them (ClusterJobStateIT) needs
                    // a job whose subtasks wait for slots, as during that period or while a TaskManager restarts
                    .config("resourcemanager.standalone.start-up-time", "3600000")
                    // as a production cluster has it: checkpoints in storage every run can reach (savepoints of
                    // upgrades and stops then go to <dir>/savepoints unless an application names its own)
                    .config("execution.checkpointing.dir", CHECKPOINTS.toUri().toString())
                    .start();
        }
        return cluster;
    }
}
