package io.streamsplit.boot.autoconfigure.exactlyonce;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
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
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "10");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = from; i < to; i++) {
                boolean bad = badEvery > 0 && i % badEvery == badEvery - 1;
                producer.send(new ProducerRecord<>(input, (bad ? "bad-" : "id-") + i));
            }
            producer.flush();
        }
    }

    /**
     * Writes ids 0 ≤ n < {@code total} in batches of {@code perTick} every 100 ms, so a job is
     * reading while they arrive; the future completes after the last batch.
     */
    java.util.concurrent.CompletableFuture<Void> writeWhileRunning(int total, int perTick) {
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.ScheduledExecutorService writer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        writer.scheduleWithFixedDelay(() -> {
            int from = next.getAndAdd(perTick);
            try {
                write(from, Math.min(total, from + perTick), 0);
            } catch (Exception e) {
                done.completeExceptionally(e);
            }
            if (from + perTick >= total || done.isDone()) {
                done.complete(null);
                writer.shutdown();
            }
        }, 0, 100, java.util.concurrent.TimeUnit.MILLISECONDS);
        return done;
    }

    ConfigurableApplicationContext start(String deliveryGuarantee, String... properties) {
        return new SpringApplicationBuilder(IdsApplication.class).web(WebApplicationType.NONE)
                .properties("spring.application.name=" + name, "test.run=" + name,
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
                .properties(properties).run();
    }

    /** How often each value appears in {@code topic}, read with isolation.level=read_committed. */
    Map<String, Integer> committed(String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "check-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        Map<String, Integer> counts = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    counts.merge(new String(record.value(), StandardCharsets.UTF_8), 1, Integer::sum);
                }
                if (!consumer.assignment().isEmpty() && consumer.endOffsets(consumer.assignment()).entrySet().stream()
                        .allMatch(end -> consumer.position(end.getKey()) >= end.getValue())) {
                    break;
                }
            }
        }
        return counts;
    }

    /** Waits until {@code topic} holds at least {@code distinct} different committed values. */
    void awaitDistinct(String topic, int distinct, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofSeconds(2)).until(() -> committed(topic).size() >= distinct);
    }
}
