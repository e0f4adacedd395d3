package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The ids a lifecycle scenario sends through the job, and what a read_committed consumer downstream
 * gets: every id once, or which were lost or duplicated, and which version of the application wrote
 * each. While it runs it also measures how long the output's last stable offset stood still while
 * records waited behind it (a transaction left open stalls read_committed consumers exactly so).
 */
final class IdTraffic implements AutoCloseable {

    private final String bootstrapServers;
    private final String input;
    private final String output;
    private final int outputPartitions;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
    private final AtomicInteger sent = new AtomicInteger();
    private volatile long longestStallMs;
    private volatile long longestGapMs;
    private long lastStable = -1;
    private long inputAtLastAdvance;
    private long waitingSince = -1;

    IdTraffic(String bootstrapServers, String input, String output, int outputPartitions) {
        this.bootstrapServers = bootstrapServers;
        this.input = input;
        this.output = output;
        this.outputPartitions = outputPartitions;
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        timer.scheduleWithFixedDelay(this::measureStall, 0, 100, TimeUnit.MILLISECONDS);
    }

    /** Sends ids {@code from} ≤ n < {@code to} at {@code perSecond}; completes when the last is acknowledged. */
    CompletableFuture<Void> send(int from, int to, int perSecond) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        int perTick = Math.max(1, perSecond / 20);
        AtomicInteger next = new AtomicInteger(from);
        timer.scheduleAtFixedRate(
                () -> {
                    if (done.isDone()) {
                        throw new IllegalStateException("stop this schedule");
                    }
                    int first = next.getAndAdd(perTick);
                    int last = Math.min(to, first + perTick);
                    for (int i = first; i < last; i++) {
                        producer.send(new ProducerRecord<>(input, ("id-" + i).getBytes(StandardCharsets.UTF_8)));
                        sent.incrementAndGet();
                    }
                    if (last >= to) {
                        producer.flush();
                        done.complete(null);
                    }
                },
                0,
                50,
                TimeUnit.MILLISECONDS);
        return done;
    }

    /** Ids sent so far. */
    int sent() {
        return sent.get();
    }

    /** The longest time so far that the output's last stable offset stood still with records behind it. */
    long longestStallMs() {
        return longestStallMs;
    }

    /**
     * The longest time so far that no new record became visible to read_committed consumers while input
     * waited to be read: the pipeline's downtime as its consumers see it.
     */
    long longestGapMs() {
        return longestGapMs;
    }

    /** What a read_committed consumer of the output sees now, against ids 0 ≤ n < {@code expected}. */
    Tally tally(int expected) {
        Map<Integer, Integer> counts = new HashMap<>();
        Map<String, Integer> versions = new TreeMap<>();
        for (String value : KafkaTopics.values(bootstrapServers, output)) {
            String[] parts = value.split("@");
            counts.merge(Integer.parseInt(parts[0].substring("id-".length())), 1, Integer::sum);
            versions.merge(parts.length > 1 ? parts[1] : "?", 1, Integer::sum);
        }
        int lost = 0;
        for (int i = 0; i < expected; i++) {
            if (!counts.containsKey(i)) {
                lost++;
            }
        }
        int duplicated = counts.values().stream().mapToInt(count -> count - 1).sum();
        int out = counts.values().stream().mapToInt(Integer::intValue).sum();
        return new Tally(expected, out, lost, duplicated, versions);
    }

    /** Polls until every id 0 ≤ n < {@code expected} is there (or {@code atMost} passed); returns the tally. */
    Tally awaitAll(int expected, Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        Tally tally = tally(expected);
        while (tally.lost() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(500);
            tally = tally(expected);
        }
        return tally;
    }

    private final Map<TopicPartition, long[]> stalledSince = new HashMap<>();

    /** Last stable offset (read_committed end) vs high watermark, per output partition, every 100 ms. */
    private void measureStall() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(props)) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < outputPartitions; p++) {
                latest.put(new TopicPartition(output, p), OffsetSpec.latest());
            }
            Map<TopicPartition, OffsetSpec> inputEnds = new HashMap<>();
            admin.describeTopics(List.of(input))
                    .allTopicNames()
                    .get(5, TimeUnit.SECONDS)
                    .get(input)
                    .partitions()
                    .forEach(p -> inputEnds.put(new TopicPartition(input, p.partition()), OffsetSpec.latest()));
            while (!Thread.currentThread().isInterrupted()) {
                var stable = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                        .all()
                        .get(5, TimeUnit.SECONDS);
                var high = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                        .all()
                        .get(5, TimeUnit.SECONDS);
                long now = System.currentTimeMillis();
                long stableTotal = stable.values().stream()
                        .mapToLong(info -> info.offset())
                        .sum();
                long inputTotal = admin.listOffsets(inputEnds).all().get(5, TimeUnit.SECONDS).values().stream()
                        .mapToLong(info -> info.offset())
                        .sum();
                if (stableTotal != lastStable) {
                    lastStable = stableTotal;
                    inputAtLastAdvance = inputTotal;
                    waitingSince = -1;
                } else if (inputTotal > inputAtLastAdvance) {
                    // input arrived since the output last moved: from then on, consumers wait for it
                    waitingSince = waitingSince < 0 ? now : waitingSince;
                    longestGapMs = Math.max(longestGapMs, now - waitingSince);
                }
                for (TopicPartition tp : latest.keySet()) {
                    long lso = stable.get(tp).offset();
                    long hw = high.get(tp).offset();
                    long[] since = stalledSince.get(tp); // {lso, since}
                    if (lso >= hw || since == null || since[0] != lso) {
                        stalledSince.put(tp, new long[] {lso, now});
                    } else {
                        longestStallMs = Math.max(longestStallMs, now - since[1]);
                    }
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            // the next scheduled run measures again
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        producer.close(Duration.ofSeconds(5));
    }

    /**
     * @param in ids sent
     * @param out records a read_committed consumer sees
     * @param lost ids it does not see
     * @param duplicated records beyond the first of each id
     * @param versions how many records each version of the application wrote
     */
    record Tally(int in, int out, int lost, int duplicated, Map<String, Integer> versions) {

        boolean exact() {
            return lost == 0 && duplicated == 0 && out == in;
        }

        List<Object> row() {
            return List.of(in, out, lost, duplicated, versions);
        }
    }
}
