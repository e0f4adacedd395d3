package io.streamsplit.boot.autoconfigure.kafka.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Kafka mistakes fail startup within seconds, for plaintext clusters too, with a report that names
 * the property, the value and the fix: a host that does not resolve, an address nobody listens on, a
 * missing source or sink topic, a pattern that can never match. Sink topics can be created instead.
 */
class KafkaStartupCheckIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    /** Starts the Words app and returns the report of its startup failure, checking it failed in time. */
    private static FailureAnalysis failedStart(String bootstrapServers, String name, String... properties) {
        long start = System.nanoTime();
        Throwable failure = catchThrowable(
                () -> Words.start(bootstrapServers, name, properties).close());
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(failure).as("startup fails").isNotNull();
        // below the startup check's default timeout (30 s), which a failed check must not wait out; the first start
        // in a loaded CI JVM took 16.7 s with a 3 s timeout (Spring and Flink classes loading), so no tighter
        assertThat(took).as("time to fail").isLessThan(Duration.ofSeconds(25));
        FailureAnalysis analysis = FailureReports.analyze(failure);
        assertThat(analysis).as("a StreamSplit report for %s", failure).isNotNull();
        return analysis;
    }

    @Test
    void aHostThatDoesNotResolveNamesTheBootstrapServersProperty() {
        FailureAnalysis analysis = failedStart("kafka.nowhere.invalid:9092", "unresolved");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.bootstrap-servers",
                        "'kafka.nowhere.invalid:9092'",
                        "host 'kafka.nowhere.invalid' does not resolve");
        assertThat(analysis.getAction()).contains("Fix the host name", "startup-check.mode=warn");
    }

    @Test
    void anAddressNobodyListensOnFailsAtOnceWhateverTheTimeout() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        long start = System.nanoTime();
        // the default timeout (30 s) is for a slow broker; a refused connection does not wait for it
        FailureAnalysis analysis = failedStart("localhost:" + port, "nobody");
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isLessThan(java.time.Duration.ofSeconds(20));
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.bootstrap-servers",
                        "'localhost:" + port + "'",
                        "nothing listens at localhost:" + port + " (the connection was refused)");
        assertThat(analysis.getAction()).contains("Start Kafka there");
    }

    @Test
    void aListenerThatDoesNotAnswerFailsWithinTheTimeout() throws IOException {
        // accepts connections (the operating system does) but never answers: a broker that hangs
        try (ServerSocket silent = new ServerSocket(0)) {
            int port = silent.getLocalPort();
            FailureAnalysis analysis =
                    failedStart("localhost:" + port, "silent", "streamsplit.kafka.startup-check.timeout=3s");
            assertThat(analysis.getDescription())
                    .contains(
                            "streamsplit.kafka.bootstrap-servers",
                            "no Kafka broker answered at localhost:" + port + " within 3000 ms");
        }
    }

    @Test
    void aMissingSourceTopicIsNamedWithTheTopicsThatLookLikeIt() {
        KAFKA.broker().createTopic("orders", 1);
        FailureAnalysis analysis =
                failedStart(KAFKA.bootstrapServers(), "typo", "streamsplit.kafka.sources.words.topics=ordres");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sources.words.topics",
                        "'ordres'",
                        "topic 'ordres' of source 'words' does not exist");
        assertThat(analysis.getAction()).contains("Topics with a similar name: [orders]");
    }

    @Test
    void aSpecificOffsetForAPartitionTheTopicDoesNotHaveIsNamedWithTheRangeItHas() {
        KAFKA.broker().createTopic("six-in", 6);
        KAFKA.broker().createTopic("six-out", 1);
        FailureAnalysis analysis = failedStart(
                KAFKA.bootstrapServers(),
                "six",
                "streamsplit.kafka.sources.words.starting-offsets=specific",
                "streamsplit.kafka.sources.words.starting-specific-offsets.six-in-2=10",
                "streamsplit.kafka.sources.words.starting-specific-offsets.six-in-17=42");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sources.words.starting-specific-offsets.six-in-17",
                        "'six-in-17'",
                        "topic 'six-in'",
                        "has 6 partitions (0–5), not partition 17")
                .doesNotContain("six-in-2 ");
        assertThat(analysis.getAction()).contains("Name a partition from six-in-0 to six-in-5, or remove the entry");
    }

    @Test
    void aMissingDeadLetterTopicOfTheStepsFailsUnlessTopicCreationIsOn() throws Exception {
        KAFKA.broker().createTopic("steps-in", 1);
        KAFKA.broker().createTopic("steps-out", 1);
        FailureAnalysis analysis = failedStart(
                KAFKA.bootstrapServers(), "steps", "streamsplit.processing-errors.dead-letter-topic=steps.DLT");
        assertThat(analysis.getDescription())
                .contains("streamsplit.processing-errors.dead-letter-topic", "'steps.DLT'", "does not exist");
        assertThat(analysis.getAction()).contains("streamsplit.kafka.create-topics.enabled=true");

        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "steps",
                "streamsplit.kafka.create-topics.enabled=true",
                "streamsplit.processing-errors.dead-letter-topic=steps.DLT")) {
            try (Admin admin = Admin.create(KAFKA.broker().clientProperties())) {
                assertThat(admin.describeTopics(List.of("steps.DLT"))
                                .allTopicNames()
                                .get())
                        .containsKey("steps.DLT");
            }
        }
    }

    @Test
    void aMissingSinkTopicFailsUnlessTopicCreationIsOn() throws Exception {
        KAFKA.broker().createTopic("create-in", 1);
        FailureAnalysis analysis = failedStart(KAFKA.bootstrapServers(), "create");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sinks.upper.topic",
                        "'create-out'",
                        "does not exist",
                        "block every checkpoint");
        assertThat(analysis.getAction()).contains("streamsplit.kafka.create-topics.enabled=true");

        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "create",
                "streamsplit.kafka.create-topics.enabled=true",
                "streamsplit.kafka.create-topics.partitions=2",
                "streamsplit.kafka.sources.words.bad-record-policy=dead-letter",
                "streamsplit.kafka.sources.words.dead-letter-topic=create-in.DLT")) {
            try (Admin admin = Admin.create(KAFKA.broker().clientProperties())) {
                assertThat(admin.describeTopics(List.of("create-out", "create-in.DLT"))
                                .allTopicNames()
                                .get())
                        .allSatisfy((topic, description) ->
                                assertThat(description.partitions()).hasSize(2));
            }
        }
    }

    @Test
    void aPatternThatMatchesNothingFailsOnlyWithoutDiscovery() {
        KAFKA.broker().createTopic("pattern-out", 1);
        FailureAnalysis analysis = failedStart(
                KAFKA.bootstrapServers(),
                "pattern",
                "streamsplit.kafka.sources.words.topics=",
                "streamsplit.kafka.sources.words.pattern=clicks-.*");
        assertThat(analysis.getDescription())
                .contains(
                        "streamsplit.kafka.sources.words.pattern",
                        "'clicks-.*'",
                        "matches no topic",
                        "partition discovery is off");
        assertThat(analysis.getAction()).contains("streamsplit.kafka.sources.words.discovery-interval");

        try (ConfigurableApplicationContext app = Words.start(
                KAFKA.bootstrapServers(),
                "pattern",
                "streamsplit.kafka.sources.words.topics=",
                "streamsplit.kafka.sources.words.pattern=clicks-.*",
                "streamsplit.kafka.sources.words.discovery-interval=30s")) {
            assertThat(app.isRunning()).isTrue();
        }
    }

    @Test
    void warnModeStartsAnywayAndKeepsTheProblems() {
        try (ConfigurableApplicationContext app = Words.start(
                "kafka.nowhere.invalid:9092",
                "warned",
                "streamsplit.kafka.startup-check.mode=warn",
                "streamsplit.flink.restart.strategy=none")) {
            assertThat(app.getBean(KafkaStartupCheck.class).problems())
                    .singleElement()
                    .satisfies(problem -> assertThat(problem.summary())
                            .contains("streamsplit.kafka.bootstrap-servers", "does not resolve"));
        }
    }

    @Test
    void anExactlyOnceSinkWhoseTransactionsOutliveTheBrokersLimitFailsAtStartupNotAtItsFirstCommit() {
        try (EmbeddedKafkaBroker strict = EmbeddedKafkaBroker.builder()
                .brokerProperty("transaction.max.timeout.ms", "120000")
                .build()
                .start()) {
            strict.createTopic("eos-in", 1);
            strict.createTopic("eos-out", 1);
            FailureAnalysis analysis = failedStart(
                    strict.bootstrapServers(), "eos", "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once");
            assertThat(analysis.getDescription())
                    .contains(
                            "streamsplit.kafka.sinks.upper.properties.transaction.timeout.ms",
                            "'600000'",
                            "exactly-once sink 'upper' opens transactions with a timeout of 600000 ms",
                            "allows at most 120000 ms (transaction.max.timeout.ms)");
            assertThat(analysis.getAction())
                    .contains("Set streamsplit.kafka.sinks.upper.properties.transaction.timeout.ms to at most 120000");

            // within the broker's limit it starts
            try (ConfigurableApplicationContext app = Words.start(
                    strict.bootstrapServers(),
                    "eos",
                    "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once",
                    // 90 s must outlast a checkpoint interval + the longest restart wait + 1 min
                    "streamsplit.flink.restart.max-delay=10s",
                    "streamsplit.kafka.sinks.upper.properties.transaction.timeout.ms=90000")) {
                assertThat(app.isRunning()).isTrue();
            }
        }
    }
}
