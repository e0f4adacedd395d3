package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.boot.job.step.StepsApplication;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What failed, and did it recover: after two injected failures of a running job, {@code /actuator/streamsplit}
 * lists both (newest first: when, the cause, its class, the task, recovered once a checkpoint completed after it)
 * and {@code streamsplit.flink.job.failures} counts them by the root exception's class.
 */
class FailureHistoryIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void twoInjectedFailuresAreListedNewestFirstRecoveredAndCountedByCause() throws Exception {
        checkHistory("history");
    }

    @Test
    void onAFlinkClusterTheHistoryComesFromItsRestApi() throws Exception {
        java.net.URI rest = SharedFlinkCluster.get().restAddress();
        checkHistory(
                "history-remote",
                "streamsplit.flink.mode=remote",
                "streamsplit.flink.remote.host=" + rest.getHost(),
                "streamsplit.flink.remote.port=" + rest.getPort(),
                "streamsplit.flink.shutdown.job=cancel",
                "streamsplit.flink.remote.exclude-jars=" + SharedFlinkCluster.TEST_LIBRARIES);
    }

    private static void checkHistory(String run, String... more) throws Exception {
        KAFKA.broker().createTopic(run + "-in", 2);
        KAFKA.broker().createTopic(run + "-out", 1);
        KafkaTopics.write(
                KAFKA.bootstrapServers(),
                run + "-in",
                IntStream.range(0, 4_000).mapToObj(i -> "id-" + i).toList());
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(StepsApplication.class)
                .properties(StepsApplication.properties(run, KAFKA.bootstrapServers()))
                .properties(
                        "server.port=0",
                        "management.endpoints.web.exposure.include=streamsplit",
                        "test.fail-every=1000000",
                        "test.fail-after-records=1000,3000",
                        "streamsplit.flink.restart.delay=200ms")
                .properties(more)
                .run()) {
            StreamSplitEndpoint endpoint = app.getBean(StreamSplitEndpoint.class);
            int[] listed = {0};
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> failures =
                        (List<Map<String, Object>>) endpoint.job().get("failures");
                // two failures, or one when the second struck while Flink was still failing over from the first (the
                // other subtask reads on until it is cancelled: a loaded CI machine saw one root entry)
                assertThat(failures).hasSizeBetween(1, 2);
                assertThat(failures.get(0).get("cause").toString()).contains("injected failure after 3000 records");
                if (failures.size() == 2) {
                    assertThat(failures.get(1).get("cause").toString()).contains("injected failure after 1000 records");
                }
                listed[0] = failures.size();
                assertThat(failures).allSatisfy(failure -> {
                    assertThat(failure).containsEntry("causeClass", "java.lang.IllegalStateException");
                    assertThat(failure.get("task").toString()).contains("inject failures");
                    assertThat(failure).containsEntry("recovered", true);
                });
            });
            await().atMost(Duration.ofSeconds(15))
                    .untilAsserted(() -> assertThat(app.getBean(MeterRegistry.class)
                                    .find("streamsplit.flink.job.failures")
                                    .tag("cause", "java.lang.IllegalStateException")
                                    .functionCounter())
                            .isNotNull()
                            .satisfies(counter -> assertThat(counter.count()).isEqualTo(listed[0])));
        }
    }
}
