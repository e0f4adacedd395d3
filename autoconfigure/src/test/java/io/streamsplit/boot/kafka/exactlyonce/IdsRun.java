package io.streamsplit.boot.kafka.exactlyonce;

import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** One run of {@link IdsApplication}: its topics, its input, and what a read_committed reader sees. */
final class IdsRun {

    final String name = "run-" + UUID.randomUUID().toString().substring(0, 8);
    final String input = name + "-in";
    final String output = name + "-out";
    final String deadLetters = name + "-in.DLT";
    private final String bootstrapServers;

    IdsRun(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** Writes ids {@code from} ≤ n < {@code to}; every {@code badEvery}-th record is a bad one instead. */
    void write(int from, int to, int badEvery) throws Exception {
        List<String> values = new java.util.ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            boolean bad = badEvery > 0 && i % badEvery == badEvery - 1;
            values.add((bad ? "bad-" : "id-") + i);
        }
        KafkaTopics.write(bootstrapServers, input, values);
    }

    /**
     * Writes ids {@code from} ≤ n < {@code to} in batches of {@code perTick} every 100 ms, so a job
     * is reading while they arrive; the future completes after the last batch.
     */
    java.util.concurrent.CompletableFuture<Void> writeWhileRunning(int from, int to, int perTick) {
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.ScheduledExecutorService writer =
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger(from);
        writer.scheduleWithFixedDelay(
                () -> {
                    int first = next.getAndAdd(perTick);
                    try {
                        write(first, Math.min(to, first + perTick), 0);
                    } catch (Exception e) {
                        done.completeExceptionally(e);
                    }
                    if (first + perTick >= to || done.isDone()) {
                        done.complete(null);
                        writer.shutdown();
                    }
                },
                0,
                100,
                java.util.concurrent.TimeUnit.MILLISECONDS);
        return done;
    }

    ConfigurableApplicationContext start(String deliveryGuarantee, String... properties) {
        return new SpringApplicationBuilder(IdsApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=" + name,
                        "test.run=" + name,
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + bootstrapServers,
                        "streamsplit.kafka.sources.ids.topics=" + input,
                        "streamsplit.kafka.sources.ids.group-id=" + name,
                        "streamsplit.kafka.sources.ids.deserializer=idDeserializer",
                        "streamsplit.kafka.sources.ids.bad-record-policy=dead-letter",
                        "streamsplit.kafka.sources.ids.dead-letter-topic=" + deadLetters,
                        "streamsplit.kafka.sinks.out.topic=" + output,
                        "streamsplit.kafka.sinks.out.serializer=utf8",
                        "streamsplit.kafka.sinks.out.delivery-guarantee=" + deliveryGuarantee,
                        "streamsplit.flink.parallelism=2",
                        "streamsplit.flink.checkpointing.interval=500ms",
                        "streamsplit.flink.restart.attempts=30",
                        "streamsplit.flink.restart.delay=500ms")
                .properties(properties)
                .run();
    }

    /** The transactional ids of the transactions open on the broker now (the app's are the only ones). */
    List<String> ongoingTransactions() throws Exception {
        try (Admin admin = admin()) {
            return admin.listTransactions().all().get(10, TimeUnit.SECONDS).stream()
                    .filter(listing -> listing.state() == TransactionState.ONGOING
                            || listing.state() == TransactionState.PREPARE_COMMIT
                            || listing.state() == TransactionState.PREPARE_ABORT)
                    .map(TransactionListing::transactionalId)
                    .toList();
        }
    }

    /** The producer epoch of every transactional id the broker knows of this run's application (by its name). */
    Map<String, Integer> transactionEpochs() throws Exception {
        try (Admin admin = admin()) {
            List<String> ids = admin.listTransactions().all().get(10, TimeUnit.SECONDS).stream()
                    .map(TransactionListing::transactionalId)
                    .filter(id -> id.contains(name))
                    .toList();
            Map<String, Integer> epochs = new java.util.TreeMap<>();
            admin.describeTransactions(ids)
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .forEach((id, description) -> epochs.put(id, description.producerEpoch()));
            return epochs;
        }
    }

    /**
     * The partitions of {@code topics} whose last stable offset (what read_committed readers can reach) is below
     * the high watermark (everything written), with the records in between: an open transaction's.
     */
    Map<TopicPartition, Long> invisibleRecords(String... topics) throws Exception {
        try (Admin admin = admin()) {
            java.util.Set<TopicPartition> partitions = new java.util.HashSet<>();
            for (var description : admin.describeTopics(List.of(topics))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .values()) {
                description
                        .partitions()
                        .forEach(p -> partitions.add(new TopicPartition(description.name(), p.partition())));
            }
            Map<TopicPartition, Long> invisible = new HashMap<>();
            stableAndWritten(admin, partitions, Duration.ofSeconds(10)).forEach((partition, ends) -> {
                if (ends[1] > ends[0]) {
                    invisible.put(partition, ends[1] - ends[0]);
                }
            });
            return invisible;
        }
    }

    /**
     * Each partition's last stable offset (what read_committed readers can reach) and high watermark (everything
     * written, open transactions included), as {@code {stable, written}}.
     */
    static Map<TopicPartition, long[]> stableAndWritten(
            Admin admin, java.util.Set<TopicPartition> partitions, Duration timeout) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        var stable = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        var written = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED))
                .all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, long[]> ends = new HashMap<>();
        partitions.forEach(partition -> ends.put(partition, new long[] {
            stable.get(partition).offset(), written.get(partition).offset()
        }));
        return ends;
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /** How often each value appears in {@code topic}, read with isolation.level=read_committed. */
    Map<String, Integer> committed(String topic) {
        Map<String, Integer> counts = new HashMap<>();
        KafkaTopics.values(bootstrapServers, topic).forEach(value -> counts.merge(value, 1, Integer::sum));
        return counts;
    }

    /** Waits until {@code topic} holds at least {@code distinct} different committed values. */
    void awaitDistinct(String topic, int distinct, Duration atMost) {
        await().atMost(atMost)
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> committed(topic).size() >= distinct);
    }
}
