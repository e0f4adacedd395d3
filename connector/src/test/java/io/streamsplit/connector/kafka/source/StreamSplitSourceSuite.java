package io.streamsplit.connector.kafka.source;

import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.connector.testframe.TestResource;
import org.apache.flink.connector.testframe.environment.MiniClusterTestEnvironment;
import org.apache.flink.connector.testframe.junit.annotations.TestEnv;
import org.apache.flink.connector.testframe.junit.annotations.TestExternalSystem;
import org.apache.flink.connector.testframe.junit.annotations.TestSemantics;
import org.apache.flink.connector.testframe.testsuites.SourceTestSuiteBase;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.junit.jupiter.api.AfterEach;

/**
 * Flink's own connector test suite ({@link SourceTestSuiteBase}: single split, multiple splits,
 * savepoint, scale up, scale down, metrics, idle reader, TaskManager failure) against our
 * source, in both checkpointing semantics; each subclass gives one shape of splits
 * ({@link SplitPerPartitionSourceSuiteIT}, {@link SplitPerTopicSourceSuiteIT}), so the two shapes
 * run in parallel test JVMs. Every test of the suite runs; none is excluded.
 */
abstract class StreamSplitSourceSuite extends SourceTestSuiteBase<String> {

    @TestEnv
    MiniClusterTestEnvironment flink = new MiniClusterTestEnvironment();

    @TestExternalSystem
    EmbeddedKafkaResource kafka = new EmbeddedKafkaResource();

    @TestSemantics
    CheckpointingMode[] semantics = {CheckpointingMode.EXACTLY_ONCE, CheckpointingMode.AT_LEAST_ONCE};

    /**
     * The suite shares one MiniCluster; a failed invocation may leave its job running and holding
     * slots that the next invocation needs. Cancel whatever still runs.
     */
    @AfterEach
    void cancelLeftoverJobs() throws Exception {
        Configuration config = new Configuration();
        config.set(RestOptions.ADDRESS, flink.getRestEndpoint().getAddress());
        config.set(RestOptions.PORT, flink.getRestEndpoint().getPort());
        try (RestClusterClient<StandaloneClusterId> client =
                new RestClusterClient<>(config, StandaloneClusterId.getInstance())) {
            for (JobStatusMessage job : client.listJobs().get(30, TimeUnit.SECONDS)) {
                if (!job.getJobState().isGloballyTerminalState() && job.getJobState() != JobStatus.CANCELLING) {
                    client.cancel(job.getJobId()).get(30, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** The embedded broker as the suite's external system. */
    static final class EmbeddedKafkaResource implements TestResource {
        EmbeddedKafkaBroker broker;

        @Override
        public void startUp() {
            broker = EmbeddedKafkaBroker.builder().build().start();
        }

        @Override
        public void tearDown() {
            if (broker != null) {
                broker.close();
            }
        }

        @Override
        public String toString() {
            return "embedded Kafka (KRaft)";
        }
    }
}
