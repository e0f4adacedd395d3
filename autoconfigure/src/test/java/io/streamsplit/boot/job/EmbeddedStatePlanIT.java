package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.job.cluster.ClusterIdsApplication;
import io.streamsplit.boot.job.state.StatePlan;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The state plan before an embedded application resumes its job: a new version that renamed the uid of a keyed
 * operator does not start (nothing written, the state left as it was), naming the setting that allows the drop; with
 * that setting it starts, says what it dropped in {@code /actuator/streamsplit}, and the sources go on from their
 * offsets: every id once.
 */
class EmbeddedStatePlanIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @TempDir
    Path storage;

    @Test
    void aRenamedStatefulOperatorIsRefusedUntilTheDropIsAllowed() throws Exception {
        String job = "embedded-plan";
        KAFKA.broker().createTopic(job + "-in", 2);
        KAFKA.broker().createTopic(job + "-out", 1);
        try (ConfigurableApplicationContext v1 = start(job, 1, "test.seen-uid=seen")) {
            write(job, 0, 20);
            awaitOutput(job, 20);
        }

        // the dry run a pipeline runs before the rollout fails the same way (a failed start: exit code 1)
        for (String dryRun : List.of("streamsplit.flink.dry-run=true", "streamsplit.flink.dry-run=false")) {
            Throwable failure = null;
            try (ConfigurableApplicationContext unexpected = start(job, 2, "test.seen-uid=seen-v2", dryRun)) {
                throw new AssertionError("the application started: " + unexpected);
            } catch (RuntimeException e) {
                failure = e;
            }
            FailureAnalysis refused = FailureReports.analyze(failure);
            assertThat(refused).as(dryRun).isNotNull();
            assertThat(refused.getDescription())
                    .as(dryRun)
                    .contains(StatePlan.ALLOW_DROP, "'seen' (uid 'seen'", "keyed state", "Nothing was stopped");
        }
        assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), job + "-out")).hasSize(20);

        try (ConfigurableApplicationContext v2 =
                start(job, 2, "test.seen-uid=seen-v2", StatePlan.ALLOW_DROP + "=true")) {
            StatePlan plan = v2.getBean(StreamSplitJob.class).statePlan();
            assertThat(plan).isNotNull();
            assertThat(plan.verdict()).isEqualTo(StatePlan.Verdict.DROPS_STATE);
            assertThat(plan.dropped()).extracting(StatePlan.Operator::uid).containsExactly("seen");
            write(job, 20, 40);
            awaitOutput(job, 40);
        }
        assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), job + "-out").stream()
                        .map(tagged -> tagged.substring(0, tagged.indexOf('@')))
                        .toList())
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, 40).mapToObj(i -> "id-" + i).toList());
    }

    private ConfigurableApplicationContext start(String job, int version, String... more) {
        List<String> properties = new ArrayList<>(List.of(
                "spring.application.name=" + job,
                "test.version=" + version,
                "streamsplit.kafka.embedded.enabled=false",
                "streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                "streamsplit.kafka.sources.ids.topics=" + job + "-in",
                "streamsplit.kafka.sources.ids.group-id=" + job,
                "streamsplit.kafka.sources.ids.deserializer=idDeserializer",
                "streamsplit.kafka.sinks.out.topic=" + job + "-out",
                "streamsplit.kafka.sinks.out.serializer=utf8",
                "streamsplit.kafka.sinks.out.delivery-guarantee=exactly-once",
                "streamsplit.flink.parallelism=1",
                "streamsplit.flink.checkpointing.storage=" + storage.toUri()));
        properties.addAll(List.of(more));
        return new SpringApplicationBuilder(ClusterIdsApplication.class)
                .web(WebApplicationType.NONE)
                .properties(properties.toArray(String[]::new))
                .run();
    }

    private static void write(String job, int from, int to) throws Exception {
        KafkaTopics.write(
                KAFKA.bootstrapServers(),
                job + "-in",
                IntStream.range(from, to).mapToObj(i -> "id-" + i).toList());
    }

    private static void awaitOutput(String job, int count) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> KafkaTopics.values(KAFKA.bootstrapServers(), job + "-out")
                                .size()
                        >= count);
    }
}
