package io.streamsplit.boot.job.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.streamsplit.boot.actuate.StreamSplitEndpoint;
import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.actuate.deadletter.DeadLettersEndpoint;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.boot.kafka.exactlyonce.FailureInjector;
import io.streamsplit.connector.kafka.lineage.KafkaLineage;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A record the pipeline's own code throws for, on a real broker and MiniCluster: step {@code parse} (a map that
 * throws for every 500th id) with each policy — dead-letter (exactly once in the output and the dead-letter topic,
 * with spring-kafka's headers and the step's name, across an injected restart), skip (counted, shown in the
 * endpoint), fail (health DOWN naming the step and the record, one ERROR line); a transient failure retried and
 * never dead-lettered; a not-retryable one dead-lettered at its first attempt; and a keyed step whose failed
 * attempts leave its state, timers and output untouched.
 */
@ExtendWith(OutputCaptureExtension.class)
class ProcessingErrorsIT {

    private static final int RECORDS = 5_000;
    private static final int FAIL_EVERY = 500;

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    /** One run's topics and application. */
    private static final class Run {
        final String name = "steps-" + UUID.randomUUID().toString().substring(0, 8);
        final String input = name + "-in";
        final String output = name + "-out";
        final String deadLetters = name + ".DLT";

        Run() throws Exception {
            KAFKA.broker().createTopic(input, 2);
            KAFKA.broker().createTopic(output, 2);
            KAFKA.broker().createTopic(deadLetters, 1);
            List<String> ids =
                    IntStream.range(0, RECORDS).mapToObj(i -> "id-" + i).toList();
            KafkaTopics.write(KAFKA.bootstrapServers(), input, ids);
        }

        ConfigurableApplicationContext start(String guarantee, String... properties) {
            return new SpringApplicationBuilder(StepsApplication.class)
                    .web(WebApplicationType.NONE)
                    .properties(StepsApplication.properties(name, KAFKA.bootstrapServers()))
                    .properties(
                            "test.fail-every=" + FAIL_EVERY,
                            "streamsplit.kafka.sources.ids.group-id=" + name,
                            "streamsplit.kafka.sinks.out.delivery-guarantee=" + guarantee,
                            "streamsplit.processing-errors.back-off=10ms")
                    .properties(properties)
                    .run();
        }

        Map<String, Integer> committed(String topic) {
            Map<String, Integer> counts = new HashMap<>();
            KafkaTopics.values(KAFKA.bootstrapServers(), topic).forEach(value -> counts.merge(value, 1, Integer::sum));
            return counts;
        }

        Set<String> failing() {
            return StepsApplication.failing(RECORDS, FAIL_EVERY);
        }

        Map<String, Integer> expectedOutput() {
            return IntStream.range(0, RECORDS)
                    .mapToObj(i -> "id-" + i)
                    .filter(id -> !failing().contains(id))
                    .collect(Collectors.toMap(id -> id, id -> 1));
        }
    }

    private static double meter(ConfigurableApplicationContext app, String step, String outcome) {
        MeterRegistry registry = app.getBean(MeterRegistry.class);
        var counter = registry.find("streamsplit.step.records")
                .tag("step", step)
                .tag("outcome", outcome)
                .functionCounter();
        return counter == null ? -1 : counter.count();
    }

    @Test
    void deadLettersEveryFailingRecordExactlyOnceWithItsHeadersAcrossAnInjectedRestart() throws Exception {
        Run run = new Run();
        try (ConfigurableApplicationContext app = run.start(
                "exactly-once",
                "spring.main.web-application-type=servlet",
                "server.port=0",
                "management.endpoints.web.exposure.include=deadletters,streamsplit",
                "test.fail-after-records=2000",
                "streamsplit.processing-errors.steps.parse.policy=dead-letter",
                "streamsplit.processing-errors.steps.parse.dead-letter-topic=" + run.deadLetters,
                "streamsplit.processing-errors.steps.parse.retries=1")) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(FailureInjector.fired(run.name)).isEqualTo(1);
                        assertThat(run.committed(run.output)).isEqualTo(run.expectedOutput());
                        assertThat(run.committed(run.deadLetters).keySet()).isEqualTo(run.failing());
                    });
            // and it stays so: nothing written twice after the restart
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(run.committed(run.output)).isEqualTo(run.expectedOutput());
                assertThat(run.committed(run.deadLetters))
                        .allSatisfy((id, count) -> assertThat(count).as(id).isOne());
            });
            ConsumerRecord<byte[], byte[]> dead =
                    KafkaTopics.readAll(KAFKA.bootstrapServers(), run.deadLetters).stream()
                            .filter(r -> new String(r.value(), StandardCharsets.UTF_8).equals("id-999"))
                            .findFirst()
                            .orElseThrow();
            Map<String, String> headers = new TreeMap<>();
            for (Header header : dead.headers()) {
                headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
            }
            assertThat(headers)
                    .containsEntry("streamsplit.dlt.step", "parse")
                    .containsEntry("streamsplit.dlt.source", "ids")
                    .containsEntry("streamsplit.dlt.original-topic", run.input)
                    .containsEntry("kafka_dlt-original-topic", run.input)
                    .containsEntry("kafka_dlt-exception-fqcn", "java.lang.IllegalStateException")
                    .containsEntry("kafka_dlt-exception-message", "no price for id-999")
                    .containsKey("kafka_dlt-exception-stacktrace")
                    .containsKey("streamsplit.dlt.original-offset");

            // lineage: what Flink's lineage interface (and OpenLineage through it) sees of the job
            String cluster = KafkaLineage.namespace(KAFKA.bootstrapServers());
            @SuppressWarnings("unchecked")
            Map<String, List<Map<String, Object>>> lineage = (Map<String, List<Map<String, Object>>>)
                    app.getBean(StreamSplitEndpoint.class).job().get("lineage");
            assertThat(lineage.get("inputs")).containsExactly(Map.of("namespace", cluster, "name", run.input));
            assertThat(lineage.get("outputs"))
                    .containsExactlyInAnyOrder(
                            Map.of("namespace", cluster, "name", run.output),
                            Map.of("namespace", cluster, "name", run.deadLetters));

            // the replay endpoint lists the step's dead letters and sends them on, once
            String replayed = run.name + "-replayed";
            KAFKA.broker().createTopic(replayed, 1);
            DeadLettersEndpoint endpoint = app.getBean(DeadLettersEndpoint.class);
            assertThat(endpoint.deadLetters()).containsKey("steps");
            Map<String, Object> first = endpoint.replay(null, "parse", null, null, null, replayed);
            assertThat(first).containsEntry("step", "parse").containsEntry("replayed", (long)
                    run.failing().size());
            assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), replayed))
                    .containsExactlyInAnyOrderElementsOf(run.failing());
            assertThat(KafkaTopics.readAll(KAFKA.bootstrapServers(), replayed))
                    .allSatisfy(r -> assertThat(r.headers().toArray()).isEmpty());
            assertThat(endpoint.replay(null, "parse", null, null, null, replayed))
                    .containsEntry("replayed", 0L);
        }
    }

    @Test
    void skipsCountsAndShowsTheFailures() throws Exception {
        Run run = new Run();
        try (ConfigurableApplicationContext app = run.start(
                "at-least-once",
                "spring.main.web-application-type=servlet",
                "server.port=0",
                "management.endpoints.web.exposure.include=streamsplit",
                "streamsplit.processing-errors.policy=skip",
                "streamsplit.processing-errors.retries=0")) {
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(run.committed(run.output)).isEqualTo(run.expectedOutput());
                        assertThat(meter(app, "parse", "skipped"))
                                .isEqualTo(run.failing().size());
                    });
            assertThat(meter(app, "parse", "retried")).isZero();
            assertThat(meter(app, "parse", "dead-lettered")).isZero();
            assertThat(run.committed(run.deadLetters)).isEmpty();
            @SuppressWarnings("unchecked")
            Map<String, Object> step = (Map<String, Object>) ((Map<String, Object>)
                            app.getBean(StreamSplitEndpoint.class).job().get("steps"))
                    .get("parse");
            assertThat(step).containsEntry("policy", "skip").containsEntry("retries", 0);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> last = (List<Map<String, Object>>) step.get("lastFailures");
            assertThat(last).isNotEmpty().allSatisfy(failure -> {
                assertThat(failure).containsEntry("outcome", "skipped").containsKey("time");
                assertThat((String) failure.get("record"))
                        .contains("topic " + run.input)
                        .contains("offset ");
                assertThat((String) failure.get("exception"))
                        .startsWith("java.lang.IllegalStateException: no price for id-");
            });
        }
    }

    @Test
    void onAFlinkClusterTheStepsOutcomesComeFromItsMetrics() throws Exception {
        Run run = new Run();
        java.net.URI rest = SharedFlinkCluster.get().restAddress();
        try (ConfigurableApplicationContext app = run.start(
                "at-least-once",
                "spring.main.web-application-type=servlet",
                "server.port=0",
                "management.endpoints.web.exposure.include=streamsplit",
                "streamsplit.flink.mode=remote",
                "streamsplit.flink.remote.host=" + rest.getHost(),
                "streamsplit.flink.remote.port=" + rest.getPort(),
                "streamsplit.flink.shutdown.job=cancel",
                "streamsplit.flink.remote.exclude-jars=" + SharedFlinkCluster.TEST_LIBRARIES,
                "streamsplit.processing-errors.policy=skip",
                "streamsplit.processing-errors.retries=0")) {
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> {
                        assertThat(run.committed(run.output)).isEqualTo(run.expectedOutput());
                        assertThat(meter(app, "parse", "skipped"))
                                .isEqualTo(run.failing().size());
                    });
            @SuppressWarnings("unchecked")
            Map<String, Object> step = (Map<String, Object>) ((Map<String, Object>)
                            app.getBean(StreamSplitEndpoint.class).job().get("steps"))
                    .get("parse");
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> last = (List<Map<String, Object>>) step.get("lastFailures");
            assertThat(last)
                    .isNotEmpty()
                    .allSatisfy(failure ->
                            assertThat((String) failure.get("record")).contains("topic " + run.input));

            // the lineage the application's graph reports, with the job on the cluster
            String cluster = KafkaLineage.namespace(KAFKA.bootstrapServers());
            @SuppressWarnings("unchecked")
            Map<String, List<Map<String, Object>>> lineage = (Map<String, List<Map<String, Object>>>)
                    app.getBean(StreamSplitEndpoint.class).job().get("lineage");
            assertThat(lineage.get("inputs")).containsExactly(Map.of("namespace", cluster, "name", run.input));
            assertThat(lineage.get("outputs")).containsExactly(Map.of("namespace", cluster, "name", run.output));
        }
    }

    @Test
    void aTransientFailureIsRetriedAndNeverDeadLettered() throws Exception {
        Run run = new Run();
        try (ConfigurableApplicationContext app = run.start(
                "at-least-once",
                "test.transient=true",
                "streamsplit.processing-errors.policy=dead-letter",
                "streamsplit.processing-errors.dead-letter-topic=" + run.deadLetters)) {
            Map<String, Integer> all =
                    IntStream.range(0, RECORDS).boxed().collect(Collectors.toMap(i -> "id-" + i, i -> 1));
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(run.committed(run.output)).isEqualTo(all);
                        assertThat(meter(app, "parse", "retried"))
                                .isEqualTo(run.failing().size());
                    });
            assertThat(run.committed(run.deadLetters)).isEmpty();
            assertThat(meter(app, "parse", "dead-lettered")).isZero();
        }
    }

    @Test
    void aNotRetryableExceptionIsDeadLetteredAtItsFirstAttempt() throws Exception {
        Run run = new Run();
        try (ConfigurableApplicationContext app = run.start(
                "at-least-once",
                "test.exception=argument",
                "streamsplit.processing-errors.retries=5",
                "streamsplit.processing-errors.back-off=1s",
                "streamsplit.processing-errors.steps.parse.policy=dead-letter",
                "streamsplit.processing-errors.steps.parse.dead-letter-topic=" + run.deadLetters,
                "streamsplit.processing-errors.steps.parse.not-retryable=java.lang.IllegalArgumentException")) {
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(run.committed(run.output)).isEqualTo(run.expectedOutput());
                        assertThat(run.committed(run.deadLetters).keySet()).isEqualTo(run.failing());
                    });
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(
                            () -> assertThat(meter(app, "parse", "retried")).isZero());
            for (String id : run.failing()) {
                assertThat(StepsApplication.ATTEMPTS.get(run.name + "/" + id).get())
                        .as("attempts on " + id)
                        .isOne();
            }
        }
    }

    @Test
    void failByDefaultTurnsHealthDownNamingTheStepAndTheRecordWithOneErrorLine(CapturedOutput output) throws Exception {
        Run run = new Run();
        try (ConfigurableApplicationContext app = run.start(
                "at-least-once", "streamsplit.processing-errors.retries=0", "streamsplit.flink.restart.delay=200ms")) {
            StreamSplitHealthIndicator health = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                Health now = health.health();
                assertThat(now.getStatus()).isEqualTo(Status.DOWN);
                assertThat(String.valueOf(now.getDetails().get("reason")))
                        .contains("failing in a loop")
                        .contains("Step 'parse' failed on the record at topic " + run.input)
                        .containsPattern("partition [01], offset \\d+ \\(source 'ids'\\) after 1 attempt:"
                                + " java.lang.IllegalStateException: no price for id-\\d+")
                        .contains("streamsplit.processing-errors.steps.parse.policy");
            });
            assertThat(run.committed(run.output)).doesNotContainKeys("id-499", "id-999");
            // the failure reporter reads the job's exceptions on its own schedule, health on another: the line
            // comes when it comes, and the count below is of what is logged by the time the application closed
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> output.getAll()
                            .lines()
                            .anyMatch(line -> line.contains(" ERROR ") && line.contains("Step 'parse' failed on")));
        }
        List<String> errors = new ArrayList<>();
        for (String line : output.getAll().split("\n")) {
            if (line.contains(" ERROR ") && line.contains("Step 'parse' failed on")) {
                errors.add(line);
            }
        }
        assertThat(errors)
                .as("one ERROR per failing record, not one per restart")
                .hasSizeBetween(1, 2); // each of the two subtasks meets its first failing record
    }

    @Test
    void aKeyedStepsFailedAttemptsLeaveItsStateAndOutputUntouched() throws Exception {
        Run run = new Run();
        try (ConfigurableApplicationContext app = run.start(
                "at-least-once",
                "test.pipeline=keyed",
                "streamsplit.processing-errors.steps.totals.policy=skip",
                "streamsplit.processing-errors.steps.totals.retries=2")) {
            Map<Integer, Long> sums = new HashMap<>();
            Map<Integer, Long> counts = new HashMap<>();
            for (int i = 0; i < RECORDS; i++) {
                if (!run.failing().contains("id-" + i)) {
                    sums.merge(i % 4, (long) i, Long::sum);
                    counts.merge(i % 4, 1L, Long::sum);
                }
            }
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(meter(app, "totals", "skipped"))
                            .isEqualTo(run.failing().size()));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                List<String> lines = KafkaTopics.values(KAFKA.bootstrapServers(), run.output);
                assertThat(lines)
                        .as("one line per record that went through; none of a failed attempt")
                        .hasSize(RECORDS - run.failing().size());
                Map<Integer, Long> maxSum = new HashMap<>();
                Map<Integer, Long> maxCount = new HashMap<>();
                for (String line : lines) {
                    int key = Integer.parseInt(line.substring(0, line.indexOf('=')));
                    String[] total = line.substring(line.indexOf('=') + 1).split("/");
                    maxSum.merge(key, Long.parseLong(total[0]), Math::max);
                    maxCount.merge(key, Long.parseLong(total[1]), Math::max);
                }
                assertThat(maxSum).as("sums without the failed ids").isEqualTo(sums);
                assertThat(maxCount).as("list state without the failed ids").isEqualTo(counts);
            });
            assertThat(meter(app, "totals", "retried"))
                    .isEqualTo(2.0 * run.failing().size());
        }
    }
}
