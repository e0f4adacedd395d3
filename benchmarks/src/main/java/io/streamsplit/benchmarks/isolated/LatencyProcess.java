package io.streamsplit.benchmarks.isolated;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.LatencyBenchmark;
import io.streamsplit.benchmarks.LatencyBenchmark.Histogram;
import io.streamsplit.benchmarks.LatencyBenchmark.Percentiles;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The latency job of {@link LatencyBenchmark} in a JVM of its own: prints {@code READY} once the job
 * runs and its readers have had time for their first fetch, counts until {@code --expected} records
 * arrived, prints one {@code LATENCY} line and exits. Send and receive times are
 * {@code System.nanoTime()} of two JVMs on one Linux machine, both {@code CLOCK_MONOTONIC}.
 */
public final class LatencyProcess {

    static final String READY = "READY";
    static final String PREFIX = "LATENCY ";
    /** The reader name of the floor run: a plain {@code KafkaConsumer}, no Flink. */
    static final String CONSUMER = "CONSUMER";

    private LatencyProcess() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = args[1];
        String topic = args[2];
        int parallelism = Integer.parseInt(args[3]);
        long expected = Long.parseLong(args[4]);
        Histogram.reset();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        if (args[0].equals(CONSUMER)) {
            consume(bootstrap, topic, expected, deadline);
        } else {
            JobClient job =
                    LatencyBenchmark.startJob(LatencyBenchmark.Reader.valueOf(args[0]), bootstrap, topic, parallelism);
            LatencyBenchmark.awaitRunning(job);
            TimeUnit.SECONDS.sleep(2); // splits assigned and the first fetch issued
            ready();
            while (Histogram.count() < expected && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
        Percentiles p = Histogram.percentiles();
        System.out.printf(
                Locale.ROOT, PREFIX + "%.3f %.3f %.3f %.3f %d%n", p.p50(), p.p99(), p.p999(), p.max(), p.count());
        System.out.flush();
        System.exit(p.count() >= expected ? 0 : 1);
    }

    private static void ready() {
        System.out.println(READY);
        System.out.flush();
    }

    /**
     * The floor: one consumer on all partitions of {@code topic} from the start, Kafka's default
     * settings, recording receive time − send time of each counted record as the job's map does.
     */
    static void consume(String bootstrap, String topic, long expected, long deadline) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            BenchmarkSupport.assignFromStart(consumer, topic);
            // the first poll looks the positions up and issues the first fetch; its records count too
            record(consumer.poll(Duration.ofMillis(500)));
            ready();
            while (Histogram.count() < expected && System.nanoTime() < deadline) {
                record(consumer.poll(Duration.ofMillis(100)));
            }
        }
    }

    private static void record(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            LatencyBenchmark.recordLatency(record.value());
        }
    }

    /** Parses the {@code LATENCY} line. */
    static Percentiles parse(String line) {
        String[] f = line.substring(PREFIX.length()).trim().split(" ");
        return new Percentiles(
                Double.parseDouble(f[0]),
                Double.parseDouble(f[1]),
                Double.parseDouble(f[2]),
                Double.parseDouble(f[3]),
                Long.parseLong(f[4]));
    }
}
