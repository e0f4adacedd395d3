package io.streamsplit.boot.test;

import io.streamsplit.boot.actuate.JobSplits;
import io.streamsplit.boot.actuate.KafkaSplitStates;
import io.streamsplit.boot.actuate.SourceState;
import io.streamsplit.boot.autoconfigure.StreamSplitProperties;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceProperties;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaBootstrapServers;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.boot.job.failure.JobFailures;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends, reads and waits in a pipeline test: the bean a {@link StreamSplitTest} adds to the context.
 * Reads are read_committed, so an exactly-once sink's output shows once its checkpoint completes,
 * as any consumer downstream would see it. Every wait fails with what did happen: records that
 * arrived, the job's state and its latest failure.
 *
 * <pre>{@code
 * import io.streamsplit.boot.test.PipelineTester;
 * import io.streamsplit.boot.test.StreamSplitTest;
 * import java.time.Instant;
 * import org.junit.jupiter.api.Test;
 * import org.springframework.beans.factory.annotation.Autowired;
 *
 * @StreamSplitTest
 * class TotalsTest {
 *     @Autowired PipelineTester pipeline;
 *
 *     @Test
 *     void totals() {
 *         pipeline.send("orders", "alice", "{\"cents\":100}", Instant.parse("2024-01-01T00:00:01Z"));
 *         pipeline.awaitRecords("totals", 1);
 *     }
 * }
 * }</pre>
 */
public final class PipelineTester implements SmartInitializingSingleton, DisposableBean {

    static final String BEAN_NAME = "streamSplitPipelineTester";

    /** How long the waits without a timeout argument wait. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final ListableBeanFactory beans;
    private final TestSettings settings;
    private final @Nullable EmbeddedKafkaBroker broker;
    private @Nullable TopicIo io;
    private @Nullable JobWatch job;
    private @Nullable JsonMapper json;

    PipelineTester(ListableBeanFactory beans, TestSettings settings, @Nullable EmbeddedKafkaBroker broker) {
        this.beans = beans;
        this.settings = settings;
        this.broker = broker;
    }

    /**
     * Creates every topic the application names (source topics, dead-letter and sink topics, the topics
     * of source beans) and the {@link StreamSplitTest#topics()}, with {@link StreamSplitTest#partitions()}
     * each; runs before the Kafka startup check, which then finds them.
     */
    @Override
    public void afterSingletonsInstantiated() {
        Set<String> topics = new LinkedHashSet<>(settings.topics());
        topics.addAll(beans.getBean(StreamSplitProperties.class).getKafka().namedTopics());
        beans.getBeansOfType(StreamSplitKafkaSource.class).values().forEach(source -> topics.addAll(source.topics()));
        io().create(List.copyOf(topics), settings.partitions());
    }

    /** The test's Kafka, for clients a test builds itself. */
    public String bootstrapServers() {
        return io().bootstrapServers();
    }

    /** Sends {@code value} (UTF-8) with {@code key} (may be {@code null}) and waits for the broker's ack. */
    public void send(String topic, @Nullable String key, @Nullable String value) {
        send(new ProducerRecord<>(topic, utf8(key), utf8(value)));
    }

    /** Sends with an explicit record timestamp: the event time a Kafka-timestamp watermark strategy sees. */
    public void send(String topic, @Nullable String key, @Nullable String value, Instant timestamp) {
        send(new ProducerRecord<>(topic, null, timestamp.toEpochMilli(), utf8(key), utf8(value)));
    }

    /** Sends {@code value} written as JSON by the application's {@code JsonMapper}. */
    public void sendJson(String topic, @Nullable String key, Object value) {
        send(new ProducerRecord<>(topic, utf8(key), json().writeValueAsBytes(value)));
    }

    /** Sends {@code value} as JSON with an explicit record timestamp. */
    public void sendJson(String topic, @Nullable String key, Object value, Instant timestamp) {
        send(new ProducerRecord<>(topic, null, timestamp.toEpochMilli(), utf8(key), json().writeValueAsBytes(value)));
    }

    /** Sends raw bytes (an Avro payload, a malformed record). */
    public void sendBytes(String topic, byte @Nullable [] key, byte @Nullable [] value) {
        send(new ProducerRecord<>(topic, key, value));
    }

    /** Sends a record as built: partition, timestamp and headers included. */
    public void send(ProducerRecord<byte[], byte[]> record) {
        io().send(record);
    }

    /**
     * Moves event time forward on every partition of {@code topic}: sends {@code value} with
     * {@code timestamp} to each partition, so every source reader's watermark passes it and windows
     * that end before it close, without waiting on wall-clock time or idleness timeouts. Use a value
     * the pipeline accepts and that lands in a later window (a watermark moves on records, not on
     * skipped or dead-lettered ones).
     */
    public void advanceTime(String topic, Instant timestamp, String value) {
        int partitions = io().partitions(topic);
        for (int partition = 0; partition < partitions; partition++) {
            send(new ProducerRecord<>(topic, partition, timestamp.toEpochMilli(), null, utf8(value)));
        }
    }

    /** Everything now in {@code topic} as a read_committed consumer sees it (exactly-once output included). */
    public List<ReceivedRecord> read(String topic) {
        return io().read(topic);
    }

    /** Waits until {@code topic} holds at least {@code count} records; returns all it holds. */
    public List<ReceivedRecord> awaitRecords(String topic, int count) {
        return awaitRecords(topic, count, record -> true, DEFAULT_TIMEOUT);
    }

    /** Waits until {@code count} records of {@code topic} match {@code filter}; returns those. */
    public List<ReceivedRecord> awaitRecords(String topic, int count, Predicate<ReceivedRecord> filter) {
        return awaitRecords(topic, count, filter, DEFAULT_TIMEOUT);
    }

    /**
     * Waits up to {@code timeout} until {@code count} records of {@code topic} match {@code filter};
     * returns those. On timeout it fails saying how many arrived, the last of them, and the job's state.
     */
    public List<ReceivedRecord> awaitRecords(
            String topic, int count, Predicate<ReceivedRecord> filter, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<ReceivedRecord> matching = read(topic).stream().filter(filter).toList();
            if (matching.size() >= count) {
                return matching;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(arrivedTooFew(topic, count, matching, timeout));
            }
            JobWatch.pause();
        }
    }

    /** The dead letters source {@code source} wrote so far, error headers decoded. */
    public List<DeadLetter> deadLetters(String source) {
        return read(deadLetterTopic(source)).stream().map(DeadLetter::of).toList();
    }

    /** Waits until source {@code source} has sent at least {@code count} dead letters; returns them all. */
    public List<DeadLetter> awaitDeadLetters(String source, int count) {
        return awaitRecords(deadLetterTopic(source), count).stream()
                .map(DeadLetter::of)
                .toList();
    }

    /**
     * The live split state of source {@code source}: what the {@code kafkasplits} Actuator endpoint
     * shows (offsets, lag, watermarks, bad-record counts), read in-process.
     */
    public SourceState splits(String source) {
        JobSplits all = beans.getBean(KafkaSplitStates.class).read();
        SourceState state = all.sources().get(source);
        if (state == null) {
            throw new AssertionError("No split state for source '" + source + "': "
                    + (all.message() != null
                            ? all.message()
                            : "the job's sources are " + all.sources().keySet()));
        }
        return state;
    }

    /** Waits (up to {@link #DEFAULT_TIMEOUT}) until every task of the job runs; returns the Flink job id. */
    public String awaitJobRunning() {
        return job().awaitRunning(DEFAULT_TIMEOUT);
    }

    /** Waits for a checkpoint that completes after this call (exactly-once output is then committed); returns its id. */
    public long awaitCheckpoint() {
        return job().awaitCheckpoint(DEFAULT_TIMEOUT);
    }

    /**
     * Crashes the job's TaskManager (every task fails, as when a machine dies), starts a new one, and
     * waits until the job restarted from its last checkpoint and all tasks run again. Returns the id
     * of the checkpoint it restored, or -1 when it restarted without one (no checkpoint had completed).
     */
    public long injectFailure() {
        return job().injectFailure(DEFAULT_TIMEOUT);
    }

    /** The job's status, latest checkpoint and latest failure in one sentence. */
    public String describeJob() {
        return job().describe();
    }

    /** Reads a record's value as {@code type} with the application's {@code JsonMapper}. */
    public <T> T fromJson(ReceivedRecord record, Class<T> type) {
        if (record.rawValue() == null) {
            throw new AssertionError("Record " + record.describe() + " is a tombstone (no value)");
        }
        return json().readValue(record.rawValue(), type);
    }

    private String arrivedTooFew(String topic, int count, List<ReceivedRecord> matching, Duration timeout) {
        StringBuilder text = new StringBuilder("Expected ")
                .append(count)
                .append(count == 1 ? " record" : " records")
                .append(" in topic '")
                .append(topic)
                .append("' within ")
                .append(JobWatch.seconds(timeout))
                .append(", ")
                .append(matching.size())
                .append(matching.size() == 1 ? " arrived" : " arrived");
        if (!matching.isEmpty()) {
            text.append("; the last: ");
            matching.subList(Math.max(0, matching.size() - 3), matching.size())
                    .forEach(r -> text.append("\n  ").append(r.describe()));
        }
        text.append("\n").append(job().describe());
        StreamSplitProperties properties = beans.getBean(StreamSplitProperties.class);
        properties.getKafka().getSources().keySet().forEach(name -> {
            try {
                SourceState source = splits(name);
                text.append("\nSource '")
                        .append(name)
                        .append("': ")
                        .append(source.recordsIn())
                        .append(" records in, ")
                        .append(source.recordsSkipped())
                        .append(" skipped, ")
                        .append(source.recordsDeadLettered())
                        .append(" dead-lettered, lag ")
                        .append(source.lag())
                        .append('.');
            } catch (AssertionError | RuntimeException e) {
                // the job is not running: its description above says why
            }
        });
        return text.toString();
    }

    private String deadLetterTopic(String source) {
        Map<String, KafkaSourceProperties> sources =
                beans.getBean(StreamSplitProperties.class).getKafka().getSources();
        KafkaSourceProperties properties = sources.get(source);
        if (properties == null) {
            throw new AssertionError(
                    "No source '" + source + "' in streamsplit.kafka.sources; the sources are " + sources.keySet());
        }
        if (properties.getDeadLetterTopic() == null) {
            throw new AssertionError("Source '" + source + "' has no dead-letter topic: set streamsplit.kafka.sources."
                    + source + ".bad-record-policy=dead-letter and .dead-letter-topic");
        }
        return properties.getDeadLetterTopic();
    }

    private synchronized TopicIo io() {
        if (io == null) {
            String servers = broker != null
                    ? broker.bootstrapServers()
                    : beans.getBean(KafkaBootstrapServers.class)
                            .resolve("streamsplit.kafka.bootstrap-servers", List.of());
            io = new TopicIo(beans.getBean(KafkaClientProperties.class)
                    .forClient(KafkaClients.Kind.CONSUMER, servers, Map.of()));
        }
        return io;
    }

    private synchronized JobWatch job() {
        if (job == null) {
            job = new JobWatch(
                    beans.getBean(StreamSplitJob.class),
                    beans.getBean(FlinkRestClient.class),
                    beans.getBean(JobFailures.class),
                    () -> beans.getBeanProvider(EmbeddedFlinkCluster.class).getIfAvailable());
        }
        return job;
    }

    private synchronized JsonMapper json() {
        if (json == null) {
            json = beans.getBeanProvider(JsonMapper.class).getIfUnique(JsonMapper::new);
        }
        return json;
    }

    private static byte @Nullable [] utf8(@Nullable String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void destroy() {
        if (io != null) {
            io.close();
        }
    }
}
