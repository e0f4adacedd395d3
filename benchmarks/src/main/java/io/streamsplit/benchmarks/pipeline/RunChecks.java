package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.BenchmarkSupport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;

/** What {@link PipelineBenchmark} checks after each run: that it measured what the variant says. */
final class RunChecks {

    private RunChecks() {}

    /** Fails the run unless its output shows the job did what the variant says. */
    static void whatWasMeasured(
            PipelineVariant variant,
            PipelineProcess.Figures figures,
            int records,
            int accounts,
            String bootstrap,
            String output)
            throws Exception {
        long outputs = variant.expectedOutput(records, accounts);
        if (variant.exactlyOnce() && figures.outputRecords() != outputs) {
            throw new IllegalStateException(variant.label + ": " + figures.outputRecords() + " output records for "
                    + records + " input records, " + outputs + " expected; its log:\n"
                    + PipelineProcess.tail(figures.log()));
        }
        if (variant.windowed()) {
            // one record per account and window is not yet every order counted once: a window that dropped
            // late orders has a record too
            long counted = countedOrders(bootstrap, output);
            long good = records - variant.input.badOf(records);
            if (counted != good) {
                throw new IllegalStateException(variant.label + ": the windows count " + counted + " orders, " + good
                        + " good ones were written; its log:\n" + PipelineProcess.tail(figures.log()));
            }
        }
        String deadLetterTopic = variant.deadLetterTopic(output);
        if (deadLetterTopic != null) {
            // every malformed record dead-lettered: once under exactly-once, at least once otherwise
            long bad = variant.input.badOf(records);
            long deadLetters = BenchmarkSupport.readToEnd(bootstrap, deadLetterTopic);
            if (variant.exactlyOnce() ? deadLetters != bad : deadLetters < bad) {
                throw new IllegalStateException(variant.label + ": " + deadLetters + " records in " + deadLetterTopic
                        + " for " + bad + " malformed input records; its log:\n"
                        + PipelineProcess.tail(figures.log()));
            }
        }
        if (variant.job != PipelineVariant.Job.UPPERCASE) {
            return;
        }
        boolean traced = Files.readString(figures.log()).contains(PipelineVariant.TRACING_LINE);
        if (traced != variant.tracing) {
            throw new IllegalStateException(variant.label + ": the app " + (traced ? "traced" : "did not trace")
                    + " records; its log:\n" + PipelineProcess.tail(figures.log()));
        }
        String traceparent = firstTraceparent(bootstrap, output);
        // a span is made for a sampled input (flags 01); an unsampled one's context travels unchanged
        String expected = variant.input == PipelineVariant.Input.PLAIN
                ? "none"
                : variant.tracing && traceparent != null && traceparent.endsWith("-01")
                        ? "a new span of the input's trace"
                        : "the input's";
        String seen = traceparent == null
                ? "none"
                : traceparent.substring(36, 52).equals(traceparent.substring(19, 35))
                        ? "the input's"
                        : "a new span of the input's trace";
        if (!seen.equals(expected)) {
            throw new IllegalStateException(variant.label + ": the output's traceparent is " + seen + " (" + traceparent
                    + "), expected " + expected);
        }
    }

    /** The sum of the {@code count} of every window record in {@code topic}, read {@code read_committed}. */
    static long countedOrders(String bootstrap, String topic) {
        AtomicLong sum = new AtomicLong();
        BenchmarkSupport.readToEnd(
                bootstrap,
                topic,
                value -> sum.addAndGet(numberAfter(new String(value, StandardCharsets.UTF_8), "\"count\":")),
                false);
        return sum.get();
    }

    /** The whole number after {@code key} in {@code json}, failing where there is none. */
    static long numberAfter(String json, String key) {
        int at = json.indexOf(key);
        if (at < 0) {
            throw new IllegalStateException("An output record without " + key + " " + json);
        }
        int from = at + key.length();
        int to = from;
        while (to < json.length() && (Character.isDigit(json.charAt(to)) || (to == from && json.charAt(to) == '-'))) {
            to++;
        }
        return Long.parseLong(json.substring(from, to));
    }

    /** The {@code traceparent} of the topic's first record (of any partition), null when it has none. */
    private static @Nullable String firstTraceparent(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            BenchmarkSupport.assignFromStart(consumer, topic);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    Header header = record.headers().lastHeader("traceparent");
                    return header == null ? null : new String(header.value(), StandardCharsets.US_ASCII);
                }
            }
            throw new IllegalStateException("No record in " + topic + " within 30 s");
        }
    }
}
