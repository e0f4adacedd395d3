package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.RoundRatio;
import io.streamsplit.benchmarks.isolated.BrokerProcess;
import io.streamsplit.benchmarks.isolated.IsolatedBenchmark;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * End-to-end latency of whole pipelines at a fixed rate ({@link PipelineVariant}s, e.g. the starter's
 * running totals against the same job wired by hand): per run a fresh JVM reading a topic of its own; once
 * its first output shows, the harness writes {@code --rate} records/s for {@code --seconds}, each stamped
 * with the time it is sent, and a {@code read_committed} consumer takes <em>now − the output record's
 * timestamp</em> for each result (both jobs write the element's timestamp, which is the input record's).
 * The first {@code --warmup-seconds} are not counted. Variants alternate order round by round.
 *
 * <pre>
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.pipeline.PipelineLatencyBenchmark \
 *     -Dexec.args="--variants hand-wired,starter --rate 5000 --seconds 30 --rounds 3 --checkpoint 1s"
 * </pre>
 */
public final class PipelineLatencyBenchmark {

    /** One run's latencies in ms, over {@code count} results. */
    record LatencyRun(PipelineVariant variant, double p50, double p99, double p999, double max, long count) {}

    private PipelineLatencyBenchmark() {}

    public static void main(String[] args) throws Exception {
        BenchmarkSupport.requireFullJit(PipelineLatencyBenchmark.class);
        Map<String, String> f = PipelineBenchmark.options(
                Map.of("rate", "5000", "seconds", "30", "warmup-seconds", "5", "checkpoint", "1s"), args);
        run(
                PipelineBenchmark.Settings.of(f),
                Integer.parseInt(f.get("rate")),
                Duration.ofSeconds(Long.parseLong(f.get("seconds"))),
                Duration.ofSeconds(Long.parseLong(f.get("warmup-seconds"))),
                System.out);
    }

    static List<LatencyRun> run(
            PipelineBenchmark.Settings settings, int rate, Duration seconds, Duration warmup, PrintStream out)
            throws Exception {
        Path work = Files.createTempDirectory("pipeline-latency");
        PipelineVariant.Jars jars = PipelineVariant.Jars.prepare(settings, settings.variants(), work);
        List<LatencyRun> runs = new ArrayList<>();
        try (BrokerProcess broker = BrokerProcess.start(work)) {
            String bootstrap = broker.bootstrapServers();
            int n = 0;
            for (int round = 1; round <= settings.rounds(); round++) {
                for (PipelineVariant variant : PipelineBenchmark.inRoundOrder(settings.variants(), round)) {
                    String in = "lat.in-" + n;
                    String output = "lat.out-" + n;
                    List<String> topics = new ArrayList<>(variant.outputTopics(output));
                    topics.add(in);
                    IsolatedBenchmark.createTopics(bootstrap, topics, settings.partitions());
                    List<String> command = variant.command(settings, "", jars, bootstrap, in, "lat-" + n, output);
                    Path log = work.resolve("run-" + n + "-" + variant.label + ".log");
                    n++;
                    Process app = new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
                    try {
                        LatencyRun run = measure(variant, settings, bootstrap, in, output, rate, seconds, warmup, log);
                        runs.add(run);
                        out.printf(
                                Locale.ROOT,
                                "round %d %-11s p50 %7.1f ms  p99 %7.1f ms  p99.9 %7.1f ms  max %7.1f ms  (%,d results)%n",
                                round,
                                variant.label,
                                run.p50(),
                                run.p99(),
                                run.p999(),
                                run.max(),
                                run.count());
                    } finally {
                        app.destroy();
                        if (!app.waitFor(30, TimeUnit.SECONDS)) {
                            app.destroyForcibly().waitFor();
                        }
                    }
                }
            }
        }
        out.printf(
                Locale.ROOT,
                "%n%,d records/s for %d s (first %d s not counted), %d partitions, %d ms checkpoints, %d round(s);"
                        + " medians over rounds, and each variant's p99 over %s's per round%n",
                rate,
                seconds.toSeconds(),
                warmup.toSeconds(),
                settings.partitions(),
                settings.checkpointInterval().toMillis(),
                settings.rounds(),
                settings.variants().get(0).label);
        for (PipelineVariant variant : settings.variants()) {
            out.printf(
                    Locale.ROOT,
                    "%-11s p50 %7.1f ms  p99 %7.1f ms  p99.9 %7.1f ms  max %7.1f ms  | p99 vs %s %s%n",
                    variant.label,
                    median(runs, variant, LatencyRun::p50),
                    median(runs, variant, LatencyRun::p99),
                    median(runs, variant, LatencyRun::p999),
                    median(runs, variant, LatencyRun::max),
                    settings.variants().get(0).label,
                    RoundRatio.of(
                            values(runs, variant),
                            values(runs, settings.variants().get(0))));
        }
        return runs;
    }

    private static LatencyRun measure(
            PipelineVariant variant,
            PipelineBenchmark.Settings settings,
            String bootstrap,
            String in,
            String output,
            int rate,
            Duration seconds,
            Duration warmup,
            Path log)
            throws Exception {
        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        AtomicLong counted = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                        new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer());
                KafkaProducer<byte[], byte[]> producer =
                        new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer())) {
            BenchmarkSupport.assignFromStart(consumer, output);
            // until the job answers: one record every 100 ms, not counted
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            int i = 0;
            boolean answered = false;
            while (!answered && System.nanoTime() < deadline) {
                producer.send(record(variant, settings, in, i++, System.currentTimeMillis()));
                answered = !consumer.poll(Duration.ofMillis(100)).isEmpty();
            }
            if (!answered) {
                throw new IllegalStateException(
                        variant.label + ": no output within 90 s; its log:\n" + PipelineProcess.tail(log));
            }
            long start = System.currentTimeMillis() + 200;
            long cutoff = start + warmup.toMillis();
            int first = i;
            long total = (long) rate * seconds.toSeconds();
            Thread sender = new Thread(
                    () -> {
                        long t0 = System.nanoTime() + 200_000_000L;
                        for (long k = 0; k < total && failure.get() == null; k++) {
                            long due = t0 + k * 1_000_000_000L / rate;
                            long wait = due - System.nanoTime();
                            if (wait > 0) {
                                LockSupport.parkNanos(wait);
                            }
                            long now = System.currentTimeMillis();
                            if (now >= cutoff && !variant.input.bad(first + (int) k)) {
                                counted.incrementAndGet(); // a malformed record has no result
                            }
                            producer.send(record(variant, settings, in, first + (int) k, now), (metadata, e) -> {
                                if (e != null) {
                                    failure.compareAndSet(null, e);
                                }
                            });
                        }
                    },
                    "fixed-rate-producer");
            sender.start();
            List<Long> latencies = new ArrayList<>();
            long end = System.nanoTime() + seconds.plusSeconds(60).toNanos();
            while (System.nanoTime() < end && (sender.isAlive() || latencies.size() < counted.get())) {
                for (ConsumerRecord<byte[], byte[]> result : consumer.poll(Duration.ofMillis(20))) {
                    long now = System.currentTimeMillis();
                    if (result.timestamp() >= cutoff) {
                        latencies.add(now - result.timestamp());
                    }
                }
            }
            sender.join();
            if (failure.get() != null) {
                throw new IllegalStateException(variant.label + ": sending failed", failure.get());
            }
            if (latencies.size() != counted.get()) {
                throw new IllegalStateException(variant.label + ": " + latencies.size() + " results for "
                        + counted.get() + " records sent after the warm-up; its log:\n" + PipelineProcess.tail(log));
            }
            List<Double> sorted =
                    latencies.stream().sorted().map(Long::doubleValue).toList();
            return new LatencyRun(
                    variant,
                    PipelineBenchmark.percentile(sorted, 0.5),
                    PipelineBenchmark.percentile(sorted, 0.99),
                    PipelineBenchmark.percentile(sorted, 0.999),
                    sorted.get(sorted.size() - 1),
                    sorted.size());
        }
    }

    private static ProducerRecord<byte[], byte[]> record(
            PipelineVariant variant, PipelineBenchmark.Settings settings, String topic, int i, long timestamp) {
        return new ProducerRecord<byte[], byte[]>(
                topic,
                null,
                timestamp,
                null,
                variant.input.value(i, settings.valueSize(), settings.accounts()),
                variant.input.headers(i));
    }

    private static List<Double> values(List<LatencyRun> runs, PipelineVariant variant) {
        return runs.stream()
                .filter(r -> r.variant() == variant)
                .map(LatencyRun::p99)
                .toList();
    }

    private static double median(List<LatencyRun> runs, PipelineVariant variant, ToDoubleFunction<LatencyRun> f) {
        return BenchmarkSupport.median(runs.stream()
                .filter(r -> r.variant() == variant)
                .mapToDouble(f)
                .boxed()
                .toList());
    }
}
