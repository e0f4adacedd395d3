package io.streamsplit.boot.actuate.deadletter;

import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;

/**
 * Sends one source's dead letters back: reads its dead-letter topic ({@code read_committed}) over
 * the asked range and writes each record — original key, value, headers and timestamp, without the
 * dead-letter headers — to the topic it came from (same partition) or to a named topic.
 *
 * <p>Exactly once: the records and how far the replay got (the committed offset of consumer group
 * {@code streamsplit-replay-<source>} on the dead-letter topic) go in one Kafka transaction, under
 * the transactional id {@code streamsplit-replay-<source>} (a second replica replaying at the same
 * time fences the first). A replay starts no lower than that mark, so no dead letter is written
 * twice, also when a replay is asked again or after a crash half-way.
 *
 * <p>Refused without writing anything when the records would go to a topic the source reads and
 * the source's deserializer, run here on each of them, still fails on any: they would come straight
 * back as dead letters.
 */
final class DeadLetterReplay {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** What to replay; at most one of {@code since} and {@code fromOffset}. */
    record Request(
            @Nullable Instant since,
            @Nullable Long fromOffset,
            @Nullable Long toOffset,
            @Nullable String topic) {}

    /** Refused: nothing was written; {@code reason} says why and what to do. */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(String reason) {
            super(reason);
        }
    }

    private final String sourceName;
    private final String deadLetterTopic;
    private final @Nullable StreamSplitKafkaSource<?> source;
    private final Properties clients;
    private final String kind;

    /** The replay of source {@code sourceName}'s dead letters, with the source's own Kafka clients' settings. */
    DeadLetterReplay(String sourceName, String deadLetterTopic, StreamSplitKafkaSource<?> source) {
        this("source", sourceName, deadLetterTopic, source, source.consumerProperties());
    }

    /**
     * The replay of pipeline step {@code step}'s dead letters, with the application's Kafka settings {@code
     * clients}. Not checked first: the step's code cannot run here, so a record that still fails after the
     * replay is dead-lettered again (and the job goes on).
     */
    static DeadLetterReplay ofStep(String step, String deadLetterTopic, Properties clients) {
        return new DeadLetterReplay("step", step, deadLetterTopic, null, clients);
    }

    private DeadLetterReplay(
            String kind,
            String name,
            String deadLetterTopic,
            @Nullable StreamSplitKafkaSource<?> source,
            Properties clients) {
        this.kind = kind;
        this.sourceName = name;
        this.deadLetterTopic = deadLetterTopic;
        this.source = source;
        this.clients = clients;
    }

    /** The consumer group (and transactional id) that remembers how far replays of this source (or step) got. */
    String replayGroup() {
        return "streamsplit-replay-" + (kind.equals("source") ? "" : kind + "-") + sourceName;
    }

    /** Per partition of the dead-letter topic: its records now and how far replays got. */
    Map<String, Object> describe() {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer);
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, TIMEOUT);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
            Map<TopicPartition, OffsetAndMetadata> committed =
                    consumer.committed(new LinkedHashSet<>(partitions), TIMEOUT);
            Map<String, Object> described = new LinkedHashMap<>();
            described.put("deadLetterTopic", deadLetterTopic);
            Map<String, Object> byPartition = new LinkedHashMap<>();
            for (TopicPartition partition : partitions) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("from", begin.get(partition));
                p.put("to", end.get(partition));
                OffsetAndMetadata mark = committed.get(partition);
                p.put("replayedUpTo", mark == null ? 0 : mark.offset());
                byPartition.put(Integer.toString(partition.partition()), p);
            }
            described.put("partitions", byPartition);
            return described;
        }
    }

    /** Replays what {@code request} asks; the counts per partition and in all. */
    Map<String, Object> replay(Request request) throws Exception {
        if (request.since() != null && request.fromOffset() != null) {
            throw new Refused("give either since or fromOffset, not both");
        }
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer);
            Map<TopicPartition, long[]> ranges = ranges(consumer, partitions, request);
            if (wouldComeBack(request.topic())) {
                refuseWhileStillBad(consumer, ranges);
            }
            return write(consumer, ranges, request.topic());
        }
    }

    /** Per partition {first offset to replay, offset to stop before, offsets skipped as already replayed}. */
    private Map<TopicPartition, long[]> ranges(
            KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions, Request request) {
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, TIMEOUT);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT); // read_committed: the LSO
        Map<TopicPartition, OffsetAndTimestamp> bySince = Map.of();
        if (request.since() != null) {
            Map<TopicPartition, Long> times = new LinkedHashMap<>();
            partitions.forEach(p -> times.put(p, request.since().toEpochMilli()));
            bySince = consumer.offsetsForTimes(times, TIMEOUT);
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new LinkedHashSet<>(partitions), TIMEOUT);
        Map<TopicPartition, long[]> ranges = new LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            long stop = end.getOrDefault(partition, 0L);
            if (request.toOffset() != null) {
                stop = Math.min(stop, request.toOffset());
            }
            long start = begin.getOrDefault(partition, 0L);
            if (request.fromOffset() != null) {
                start = Math.max(start, request.fromOffset());
            } else if (request.since() != null) {
                OffsetAndTimestamp found = bySince.get(partition);
                start = found == null ? stop : Math.max(start, found.offset());
            }
            OffsetAndMetadata mark = committed.get(partition);
            long replayedUpTo = mark == null ? 0 : mark.offset();
            long skipped = Math.max(0, Math.min(replayedUpTo, stop) - start);
            ranges.put(partition, new long[] {Math.max(start, replayedUpTo), stop, skipped});
        }
        return ranges;
    }

    /** Whether the records would go to a topic the source reads. */
    private boolean wouldComeBack(@Nullable String topic) {
        StreamSplitKafkaSource<?> source = this.source;
        if (source == null) {
            return false; // a step's code cannot be run here to check
        }
        if (topic == null) {
            return true; // back to where each came from: the source's own topics
        }
        String pattern = source.topicPattern();
        return source.topics().contains(topic) || (pattern != null && Pattern.matches(pattern, topic));
    }

    private void refuseWhileStillBad(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, long[]> ranges)
            throws Exception {
        Function<ConsumerRecord<byte[], byte[]>, @Nullable Throwable> check =
                java.util.Objects.requireNonNull(source, "a source's replay").badRecordCheck();
        long[] checked = {0};
        long[] stillBad = {0};
        String[] first = {null};
        readInBatches(consumer, ranges, batch -> {
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                checked[0]++;
                ConsumerRecord<byte[], byte[]> original = asOriginal(record);
                Throwable error = check.apply(original);
                if (error != null) {
                    stillBad[0]++;
                    if (first[0] == null) {
                        first[0] = "topic " + original.topic() + ", partition " + original.partition() + ", offset "
                                + original.offset() + ": " + error.getClass().getName() + ": " + error.getMessage();
                    }
                }
            }
        });
        if (stillBad[0] > 0) {
            throw new Refused(stillBad[0] + " of " + checked[0] + " dead letters of source '" + sourceName
                    + "' still fail with the source's deserializer, so they would come straight back to "
                    + deadLetterTopic + " (first: " + first[0] + "). Deploy the fix first, or replay them to"
                    + " another topic with \"topic\".");
        }
    }

    private Map<String, Object> write(
            KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, long[]> ranges, @Nullable String topic) {
        Map<TopicPartition, Long> replayed = new LinkedHashMap<>();
        ranges.keySet().forEach(p -> replayed.put(p, 0L));
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            producer.initTransactions();
            readInBatches(consumer, ranges, batch -> {
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> progress = new LinkedHashMap<>();
                for (ConsumerRecord<byte[], byte[]> record : batch) {
                    producer.send(toTarget(record, topic));
                    progress.put(tp(record), new OffsetAndMetadata(record.offset() + 1));
                    replayed.merge(tp(record), 1L, Long::sum);
                }
                producer.sendOffsetsToTransaction(progress, new ConsumerGroupMetadata(replayGroup()));
                producer.commitTransaction();
            });
            // the mark also moves past transaction markers and a range's end, so a replay asked again starts there
            Map<TopicPartition, OffsetAndMetadata> marks = new LinkedHashMap<>();
            ranges.forEach((partition, range) -> {
                if (range[1] > range[0]) {
                    marks.put(partition, new OffsetAndMetadata(range[1]));
                }
            });
            if (!marks.isEmpty()) {
                producer.beginTransaction();
                producer.sendOffsetsToTransaction(marks, new ConsumerGroupMetadata(replayGroup()));
                producer.commitTransaction();
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put(kind, sourceName);
        result.put("deadLetterTopic", deadLetterTopic);
        result.put("topic", topic == null ? "(each record's original topic and partition)" : topic);
        result.put(
                "replayed",
                replayed.values().stream().mapToLong(Long::longValue).sum());
        result.put(
                "alreadyReplayed", ranges.values().stream().mapToLong(r -> r[2]).sum());
        Map<String, Object> byPartition = new LinkedHashMap<>();
        ranges.forEach((partition, range) -> {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("from", range[0]);
            p.put("to", Math.max(range[0], range[1]));
            p.put("replayed", replayed.get(partition));
            byPartition.put(Integer.toString(partition.partition()), p);
        });
        result.put("partitions", byPartition);
        return result;
    }

    /** Hands the ranges' records to {@code batches}, one poll's worth at a time, in offset order per partition. */
    private static void readInBatches(
            KafkaConsumer<byte[], byte[]> consumer,
            Map<TopicPartition, long[]> ranges,
            Consumer<List<ConsumerRecord<byte[], byte[]>>> batches) {
        seek(consumer, ranges);
        while (!done(consumer, ranges)) {
            List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                if (record.offset() < range(ranges, tp(record))[1]) {
                    batch.add(record);
                }
            }
            if (!batch.isEmpty()) {
                batches.accept(batch);
            }
        }
    }

    /** Assigns and positions the partitions with something to read (no seek past a partition's end). */
    private static void seek(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, long[]> ranges) {
        List<TopicPartition> active = ranges.entrySet().stream()
                .filter(e -> e.getValue()[0] < e.getValue()[1])
                .map(Map.Entry::getKey)
                .toList();
        consumer.assign(active);
        active.forEach(partition -> consumer.seek(partition, range(ranges, partition)[0]));
    }

    private static boolean done(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, long[]> ranges) {
        return consumer.assignment().stream()
                .allMatch(partition -> consumer.position(partition, TIMEOUT) >= range(ranges, partition)[1]);
    }

    /** The [start, stop) offsets of an assigned partition: every assigned partition has its range. */
    private static long[] range(Map<TopicPartition, long[]> ranges, TopicPartition partition) {
        return Objects.requireNonNull(ranges.get(partition), partition::toString);
    }

    private static TopicPartition tp(ConsumerRecord<?, ?> record) {
        return new TopicPartition(record.topic(), record.partition());
    }

    /** The dead letter as the source first read it: original topic, partition, offset and headers. */
    private static ConsumerRecord<byte[], byte[]> asOriginal(ConsumerRecord<byte[], byte[]> dead) {
        ConsumerRecord<byte[], byte[]> original = new ConsumerRecord<>(
                text(dead, DeadLetterRecord.HEADER_TOPIC, dead.topic()),
                Integer.parseInt(text(dead, DeadLetterRecord.HEADER_PARTITION, "0")),
                Long.parseLong(text(dead, DeadLetterRecord.HEADER_OFFSET, "0")),
                dead.key(),
                dead.value());
        originalHeaders(dead).forEach(original.headers()::add);
        return original;
    }

    private static ProducerRecord<byte[], byte[]> toTarget(
            ConsumerRecord<byte[], byte[]> dead, @Nullable String topic) {
        String target = topic != null ? topic : text(dead, DeadLetterRecord.HEADER_TOPIC, null);
        if (target == null) {
            throw new IllegalStateException("Dead letter at offset " + dead.offset() + " of " + dead.topic()
                    + " has no " + DeadLetterRecord.HEADER_TOPIC + " header: replay it with a \"topic\"");
        }
        Integer partition = topic != null ? null : Integer.valueOf(text(dead, DeadLetterRecord.HEADER_PARTITION, "0"));
        return new ProducerRecord<>(
                target,
                partition,
                dead.timestamp() >= 0 ? dead.timestamp() : null,
                dead.key(),
                dead.value(),
                originalHeaders(dead));
    }

    private static List<Header> originalHeaders(ConsumerRecord<byte[], byte[]> dead) {
        List<Header> headers = new ArrayList<>();
        for (Header header : dead.headers()) {
            if (!DeadLetterRecord.isDeadLetterHeader(header.key())) {
                headers.add(new RecordHeader(header.key(), header.value()));
            }
        }
        return headers;
    }

    private static @Nullable String text(
            ConsumerRecord<byte[], byte[]> record, String header, @Nullable String fallback) {
        Header found = record.headers().lastHeader(header);
        return found == null || found.value() == null ? fallback : new String(found.value(), StandardCharsets.UTF_8);
    }

    private List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer) {
        var infos = consumer.partitionsFor(deadLetterTopic, TIMEOUT);
        if (infos == null || infos.isEmpty()) {
            throw new Refused(
                    "dead-letter topic " + deadLetterTopic + " of " + kind + " '" + sourceName + "' does not exist");
        }
        List<TopicPartition> partitions = infos.stream()
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .sorted(Comparator.comparingInt(TopicPartition::partition))
                .toList();
        consumer.assign(partitions); // read_committed end offsets of unassigned partitions log a client WARN
        return partitions;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties props = KafkaClients.only(clients, ConsumerConfig.configNames());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, replayGroup());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, replayGroup());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.remove(ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG);
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private KafkaProducer<byte[], byte[]> producer() {
        Properties props = KafkaClients.only(clients, ProducerConfig.configNames());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, replayGroup());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, replayGroup());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.remove(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
