package io.streamsplit.benchmarks;

import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * End-to-end latency at a fixed input rate: a producer writes {@code --rate} records/s for
 * {@code --seconds}, each carrying its send time ({@code System.nanoTime()}, same JVM; see
 * {@code isolated.IsolatedLatencyBenchmark} for the job in a JVM of its own), into a fresh
 * topic; a running job (source → latency map → discarding sink, at-least-once checkpoints every
 * second) records receive time − send time. Official and StreamSplit alternate; reported per run and
 * as medians: p50, p99, p99.9 and max, in milliseconds.
 *
 * <pre>
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.LatencyBenchmark \
 *     -Dexec.args="--rate 20000 --seconds 20 --partitions 4 --parallelism 2 --runs 3"
 * </pre>
 */
public final class LatencyBenchmark {

    public enum Reader {
        OFFICIAL,
        STREAMSPLIT
    }

    /** Percentiles of one run, in milliseconds. */
    public record Percentiles(double p50, double p99, double p999, double max, long count) {

        /** "p50    0.92 ms  p99    6.71 ms  p99.9   13.80 ms  max   19.47 ms" */
        public String describe() {
            return String.format(
                    Locale.ROOT, "p50 %7.2f ms  p99 %7.2f ms  p99.9 %7.2f ms  max %7.2f ms", p50, p99, p999, max);
        }

        /** One line per reader (in the map's order): the median of each percentile over its runs. */
        public static void printMedians(Map<?, List<Percentiles>> results, PrintStream out) {
            for (Map.Entry<?, List<Percentiles>> entry : results.entrySet()) {
                Object reader = entry.getKey();
                List<Percentiles> list = entry.getValue();
                Percentiles median = new Percentiles(
                        median(list, Percentiles::p50),
                        median(list, Percentiles::p99),
                        median(list, Percentiles::p999),
                        median(list, Percentiles::max),
                        0);
                out.printf(Locale.ROOT, "median %-11s %s%n", reader, median.describe());
            }
        }

        private static double median(List<Percentiles> list, java.util.function.ToDoubleFunction<Percentiles> field) {
            return BenchmarkSupport.median(
                    list.stream().map(field::applyAsDouble).toList());
        }
    }

    /** 10 µs buckets up to 10 s; the job runs in this JVM, so the map writes here directly. */
    public static final class Histogram {
        static final long BUCKET_NANOS = 10_000;
        static final AtomicLongArray COUNTS = new AtomicLongArray(1_000_000);

        public static void reset() {
            for (int i = 0; i < COUNTS.length(); i++) {
                COUNTS.set(i, 0);
            }
        }

        static void record(long nanos) {
            COUNTS.incrementAndGet((int) Math.min(COUNTS.length() - 1, Math.max(0, nanos / BUCKET_NANOS)));
        }

        public static long count() {
            long total = 0;
            for (int i = 0; i < COUNTS.length(); i++) {
                total += COUNTS.get(i);
            }
            return total;
        }

        public static Percentiles percentiles() {
            long total = count();
            double[] wanted = {0.50, 0.99, 0.999};
            double[] found = new double[wanted.length];
            long seen = 0;
            int next = 0;
            double max = 0;
            for (int i = 0; i < COUNTS.length(); i++) {
                long c = COUNTS.get(i);
                if (c == 0) {
                    continue;
                }
                seen += c;
                max = (i + 1) * BUCKET_NANOS / 1e6;
                while (next < wanted.length && seen >= Math.ceil(wanted[next] * total)) {
                    found[next++] = (i + 1) * BUCKET_NANOS / 1e6;
                }
            }
            return new Percentiles(found[0], found[1], found[2], max, total);
        }
    }

    private LatencyBenchmark() {}

    /** The flags of the latency harnesses and their defaults. */
    public static Map<String, Integer> defaults() {
        Map<String, Integer> defaults = new java.util.LinkedHashMap<>();
        defaults.put("rate", 20_000);
        defaults.put("seconds", 20);
        defaults.put("partitions", 4);
        defaults.put("parallelism", 2);
        defaults.put("record-size", 100);
        defaults.put("runs", 3);
        return defaults;
    }

    public static void main(String[] args) throws Exception {
        BenchmarkSupport.requireFullJit(LatencyBenchmark.class);
        Map<String, Integer> f = BenchmarkSupport.flags(defaults(), args);
        run(
                f.get("rate"),
                f.get("seconds"),
                f.get("partitions"),
                f.get("parallelism"),
                f.get("record-size"),
                f.get("runs"),
                System.out);
    }

    static Map<Reader, List<Percentiles>> run(
            int rate, int seconds, int partitions, int parallelism, int recordSize, int runs, PrintStream out)
            throws Exception {
        Map<Reader, List<Percentiles>> results = new EnumMap<>(Reader.class);
        out.printf(
                Locale.ROOT,
                "latency at %,d records/s for %d s, %d B records, %d partitions, parallelism %d,"
                        + " at-least-once checkpoints every 1 s%n",
                rate,
                seconds,
                recordSize,
                partitions,
                parallelism);
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            int topic = 0;
            for (int run = 0; run <= runs; run++) { // run 0 warms up
                for (Reader reader : Reader.values()) {
                    String name = "latency-" + (++topic);
                    broker.createTopic(name, partitions);
                    Percentiles p = once(
                            reader,
                            broker.bootstrapServers(),
                            name,
                            rate,
                            run == 0 ? 3 : seconds,
                            parallelism,
                            recordSize);
                    if (run == 0) {
                        continue;
                    }
                    results.computeIfAbsent(reader, r -> new ArrayList<>()).add(p);
                    out.printf(Locale.ROOT, "run %d %-11s %s  (%,d records)%n", run, reader, p.describe(), p.count());
                }
            }
        }
        Percentiles.printMedians(results, out);
        return results;
    }

    private static Percentiles once(
            Reader reader, String bootstrap, String topic, int rate, int seconds, int parallelism, int recordSize)
            throws Exception {
        Histogram.reset();
        JobClient job = startJob(reader, bootstrap, topic, parallelism);
        try {
            awaitRunning(job);
            TimeUnit.SECONDS.sleep(2); // splits assigned and the first fetch issued
            long sent = produce(bootstrap, topic, rate, 0, seconds, recordSize);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (Histogram.count() < sent && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            if (Histogram.count() < sent) {
                throw new IllegalStateException(reader + " received " + Histogram.count() + " of " + sent + " records");
            }
            return Histogram.percentiles();
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Starts the latency job of {@code reader} on {@code topic} from its earliest offset (source →
     * map recording receive time − send time in {@link Histogram} → discarding sink, at-least-once
     * checkpoints every second) on a local MiniCluster.
     */
    public static JobClient startJob(Reader reader, String bootstrap, String topic, int parallelism) throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(BenchmarkSupport.jobConfiguration(parallelism));
        env.enableCheckpointing(1000, CheckpointingMode.AT_LEAST_ONCE);
        Source<byte[], ?, ?> source = reader == Reader.OFFICIAL
                ? KafkaSource.<byte[]>builder()
                        .setBootstrapServers(bootstrap)
                        .setTopics(topic)
                        .setStartingOffsets(OffsetsInitializer.earliest())
                        .setDeserializer(KafkaRecordDeserializationSchema.valueOnly(ByteArrayDeserializer.class))
                        .build()
                : StreamSplitKafkaSource.<byte[]>builder()
                        .setBootstrapServers(bootstrap)
                        .setTopics(topic)
                        .setStartingOffsets(StartingOffsets.earliest())
                        .setRecordEmitter(values(), PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                        .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), reader.name().toLowerCase(Locale.ROOT))
                .map(value -> {
                    recordLatency(value);
                    return value;
                })
                .returns(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                .sinkTo(new DiscardingSink<>());
        return env.executeAsync(reader + " latency");
    }

    /** Records now − the send time at the start of {@code value}, unless it is a warm-up record. */
    public static void recordLatency(byte[] value) {
        if (value[8] != WARM_UP) {
            Histogram.record(System.nanoTime() - ByteBuffer.wrap(value).getLong());
        }
    }

    private static KafkaRecordEmitter<byte[]> values() {
        return (record, out) -> out.collect(record.value());
    }

    public static void awaitRunning(JobClient job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (job.getJobStatus().get() != JobStatus.RUNNING) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the job did not start within 60 s");
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /** The 9th byte of a record sent to warm the job up: not counted. */
    static final byte WARM_UP = 'W';

    /**
     * Sends at a fixed rate (paced per record, no bursts) for {@code warmUpSeconds}, then for
     * {@code seconds}; each value starts with its send time, and the warm-up records are marked
     * ({@link #WARM_UP}) so the job does not count them. Returns the records counted.
     */
    public static long produce(
            String bootstrap, String topic, int rate, int warmUpSeconds, int seconds, int recordSize) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        long warmUp = (long) rate * warmUpSeconds;
        long total = warmUp + (long) rate * seconds;
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            long start = System.nanoTime();
            for (long i = 0; i < total; i++) {
                long due = start + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 50_000) {
                    LockSupport.parkNanos(wait);
                }
                byte[] value = new byte[Math.max(9, recordSize)];
                if (i < warmUp) {
                    value[8] = WARM_UP;
                }
                ByteBuffer.wrap(value).putLong(System.nanoTime());
                producer.send(new ProducerRecord<>(topic, value));
            }
            producer.flush();
        }
        return total - warmUp;
    }
}
