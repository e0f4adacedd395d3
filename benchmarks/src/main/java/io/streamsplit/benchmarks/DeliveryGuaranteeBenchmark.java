package io.streamsplit.benchmarks;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;

import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What exactly-once costs compared with at-least-once, Kafka → Kafka on the same data: a bounded
 * StreamSplit source copies one prepared topic into a fresh topic through Flink's KafkaSink, runs
 * alternating between the two guarantees after a warm-up. Prints records/s per run, the medians and
 * the exactly-once / at-least-once ratio of each adjacent pair, and checks every run's output count
 * (read_committed), so a fast wrong run cannot pass as a result.
 *
 * <pre>
 * mvn -B -q -DskipTests install -pl benchmarks -am
 * mvn -B -q exec:java -pl benchmarks -Dexec.args="--records 1000000 --runs 3"
 * </pre>
 */
public final class DeliveryGuaranteeBenchmark {

    /** Benchmark settings; every one has a command-line flag of the same name. */
    record Settings(int records, int recordSize, int partitions, int parallelism, int runs, Duration checkpointInterval) {

        static Settings parse(String... args) {
            int records = 1_000_000;
            int recordSize = 100;
            int partitions = 4;
            int parallelism = 2;
            int runs = 3;
            long checkpointMillis = 1000;
            for (int i = 0; i + 1 < args.length; i += 2) {
                int value = Integer.parseInt(args[i + 1]);
                switch (args[i]) {
                    case "--records" -> records = value;
                    case "--record-size" -> recordSize = value;
                    case "--partitions" -> partitions = value;
                    case "--parallelism" -> parallelism = value;
                    case "--runs" -> runs = value;
                    case "--checkpoint-interval-ms" -> checkpointMillis = value;
                    default -> throw new IllegalArgumentException("unknown option " + args[i] + "; known: --records,"
                            + " --record-size, --partitions, --parallelism, --runs, --checkpoint-interval-ms");
                }
            }
            return new Settings(records, recordSize, partitions, parallelism, runs, Duration.ofMillis(checkpointMillis));
        }
    }

    /** One timed copy. */
    record Run(DeliveryGuarantee guarantee, long records, Duration elapsed) {
        double recordsPerSecond() {
            return records * 1000.0 / Math.max(1, elapsed.toMillis());
        }
    }

    private DeliveryGuaranteeBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        run(Settings.parse(args), System.out);
    }

    /** Runs the benchmark and prints its report; returns the counted runs (warm-up excluded). */
    static List<Run> run(Settings settings, PrintStream out) throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            String input = "bench-in";
            broker.createTopic(input, settings.partitions());
            write(broker.bootstrapServers(), input, settings);
            out.printf(Locale.ROOT, "%,d records x %d B, %d partitions, parallelism %d, checkpoint every %d ms%n",
                    settings.records(), settings.recordSize(), settings.partitions(), settings.parallelism(),
                    settings.checkpointInterval().toMillis());
            copy(broker, input, DeliveryGuarantee.AT_LEAST_ONCE, settings); // warm-up: JIT, class loading
            List<Run> runs = new ArrayList<>();
            for (int i = 0; i < settings.runs(); i++) {
                for (DeliveryGuarantee guarantee : List.of(DeliveryGuarantee.AT_LEAST_ONCE, DeliveryGuarantee.EXACTLY_ONCE)) {
                    Run run = copy(broker, input, guarantee, settings);
                    runs.add(run);
                    out.printf(Locale.ROOT, "run %d %-14s %,10.0f records/s (%,d ms)%n", i + 1, guarantee,
                            run.recordsPerSecond(), run.elapsed().toMillis());
                }
            }
            report(runs, out);
            return runs;
        }
    }

    private static void report(List<Run> runs, PrintStream out) {
        List<Double> alo = runs.stream().filter(r -> r.guarantee() == DeliveryGuarantee.AT_LEAST_ONCE)
                .map(Run::recordsPerSecond).toList();
        List<Double> eo = runs.stream().filter(r -> r.guarantee() == DeliveryGuarantee.EXACTLY_ONCE)
                .map(Run::recordsPerSecond).toList();
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(alo.size(), eo.size()); i++) {
            ratios.add(eo.get(i) / alo.get(i));
        }
        out.printf(Locale.ROOT, "median at-least-once %,.0f records/s, exactly-once %,.0f records/s;"
                + " exactly-once/at-least-once per pair %s (median %.2f)%n", median(alo), median(eo),
                ratios.stream().map(r -> String.format(Locale.ROOT, "%.2f", r)).toList(), median(ratios));
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static void write(String bootstrapServers, String topic, Settings settings) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        byte[] value = new byte[settings.recordSize()];
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < settings.records(); i++) {
                producer.send(new ProducerRecord<>(topic, value));
            }
        }
    }

    /** Copies {@code input} into a new topic with {@code guarantee}; returns the timed run after checking the count. */
    private static Run copy(EmbeddedKafkaBroker broker, String input, DeliveryGuarantee guarantee, Settings settings)
            throws Exception {
        String output = "bench-out-" + UUID.randomUUID();
        broker.createTopic(output, settings.partitions());
        Configuration config = new Configuration();
        config.set(CoreOptions.DEFAULT_PARALLELISM, settings.parallelism());
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, settings.checkpointInterval());
        if (ClassLoader.getSystemClassLoader() != DeliveryGuaranteeBenchmark.class.getClassLoader()) {
            // under exec:java the classes are not on the system class loader, which Flink's JobManager uses
            // for jobs without classpath entries; an empty directory makes it build a child loader instead
            config.set(PipelineOptions.CLASSPATHS, List.of(
                    java.nio.file.Files.createTempDirectory("bench-classpath").toUri().toURL().toString()));
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamSplitKafkaSource<byte[]> source = StreamSplitKafkaSource.<byte[]>builder()
                .setBootstrapServers(broker.bootstrapServers()).setTopics(input).setBounded(StoppingOffsets.latest())
                .setRecordEmitter(passThrough(), PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO).build();
        var sink = KafkaSink.<byte[]>builder().setBootstrapServers(broker.bootstrapServers())
                .setDeliveryGuarantee(guarantee)
                .setRecordSerializer(KafkaRecordSerializationSchema.<byte[]>builder().setTopic(output)
                        .setValueSerializationSchema(new BytesSchema()).build());
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            sink.setTransactionalIdPrefix(output).setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "600000");
        }
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "bench-source").sinkTo(sink.build());
        long start = System.nanoTime();
        env.execute("copy " + guarantee);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        long copied = countCommitted(broker.bootstrapServers(), output);
        if (copied < settings.records() || guarantee == DeliveryGuarantee.EXACTLY_ONCE && copied != settings.records()) {
            throw new IllegalStateException(guarantee + " copied " + copied + " of " + settings.records() + " records");
        }
        broker.deleteTopic(output);
        return new Run(guarantee, settings.records(), elapsed);
    }

    private static KafkaRecordEmitter<byte[]> passThrough() {
        return (record, out) -> out.collect(record.value());
    }

    /** A named class, not a lambda: flink-connector-kafka's lineage code reads its type parameter. */
    static final class BytesSchema implements SerializationSchema<byte[]> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(byte[] element) {
            return element;
        }
    }

    private static long countCommitted(String bootstrapServers, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            var partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(topic, p.partition())).toList();
            // with read_committed the end offsets stop at the last stable offset; transaction markers take one offset
            // each, so count by reading rather than by offsets
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var end = consumer.endOffsets(partitions);
            long count = 0;
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                count += consumer.poll(Duration.ofMillis(500)).count();
            }
            return count;
        }
    }
}
