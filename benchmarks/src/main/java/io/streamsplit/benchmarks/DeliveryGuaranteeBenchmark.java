package io.streamsplit.benchmarks;

import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerConfig;

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
    record Settings(
            int records, int recordSize, int partitions, int parallelism, int runs, Duration checkpointInterval) {

        static Settings parse(String... args) {
            Map<String, Integer> defaults = BenchmarkSupport.commonDefaults(1_000_000, 3);
            defaults.put("checkpoint-interval-ms", 1000);
            Map<String, Integer> f = BenchmarkSupport.flags(defaults, args);
            return new Settings(
                    f.get("records"),
                    f.get("record-size"),
                    f.get("partitions"),
                    f.get("parallelism"),
                    f.get("runs"),
                    Duration.ofMillis(f.get("checkpoint-interval-ms")));
        }
    }

    /** One timed copy. */
    record Run(DeliveryGuarantee guarantee, long records, Duration elapsed) {
        double recordsPerSecond() {
            return records * 1000.0 / Math.max(1, elapsed.toMillis());
        }
    }

    private DeliveryGuaranteeBenchmark() {}

    public static void main(String[] args) throws Exception {
        BenchmarkSupport.requireFullJit(DeliveryGuaranteeBenchmark.class);
        run(Settings.parse(args), System.out);
    }

    /** Runs the benchmark and prints its report; returns the counted runs (warm-up excluded). */
    static List<Run> run(Settings settings, PrintStream out) throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            String input = "bench-in";
            broker.createTopic(input, settings.partitions());
            BenchmarkSupport.writeRecords(broker.bootstrapServers(), input, settings.records(), settings.recordSize());
            out.printf(
                    Locale.ROOT,
                    "%,d records x %d B, %d partitions, parallelism %d, checkpoint every %d ms%n",
                    settings.records(),
                    settings.recordSize(),
                    settings.partitions(),
                    settings.parallelism(),
                    settings.checkpointInterval().toMillis());
            copy(broker, input, DeliveryGuarantee.AT_LEAST_ONCE, settings); // warm-up: JIT, class loading
            List<Run> runs = new ArrayList<>();
            for (int i = 0; i < settings.runs(); i++) {
                for (DeliveryGuarantee guarantee :
                        List.of(DeliveryGuarantee.AT_LEAST_ONCE, DeliveryGuarantee.EXACTLY_ONCE)) {
                    Run run = copy(broker, input, guarantee, settings);
                    runs.add(run);
                    out.printf(
                            Locale.ROOT,
                            "run %d %-14s %,10.0f records/s (%,d ms)%n",
                            i + 1,
                            guarantee,
                            run.recordsPerSecond(),
                            run.elapsed().toMillis());
                }
            }
            report(runs, out);
            return runs;
        }
    }

    private static void report(List<Run> runs, PrintStream out) {
        List<Double> alo = runs.stream()
                .filter(r -> r.guarantee() == DeliveryGuarantee.AT_LEAST_ONCE)
                .map(Run::recordsPerSecond)
                .toList();
        List<Double> eo = runs.stream()
                .filter(r -> r.guarantee() == DeliveryGuarantee.EXACTLY_ONCE)
                .map(Run::recordsPerSecond)
                .toList();
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(alo.size(), eo.size()); i++) {
            ratios.add(eo.get(i) / alo.get(i));
        }
        out.printf(
                Locale.ROOT,
                "median at-least-once %,.0f records/s, exactly-once %,.0f records/s;"
                        + " exactly-once/at-least-once per pair %s (median %.2f)%n",
                BenchmarkSupport.median(alo),
                BenchmarkSupport.median(eo),
                ratios.stream().map(r -> String.format(Locale.ROOT, "%.2f", r)).toList(),
                BenchmarkSupport.median(ratios));
    }

    /** Copies {@code input} into a new topic with {@code guarantee}; returns the timed run after checking the count. */
    private static Run copy(EmbeddedKafkaBroker broker, String input, DeliveryGuarantee guarantee, Settings settings)
            throws Exception {
        String output = "bench-out-" + UUID.randomUUID();
        broker.createTopic(output, settings.partitions());
        Configuration config = BenchmarkSupport.jobConfiguration(settings.parallelism());
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, settings.checkpointInterval());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamSplitKafkaSource<byte[]> source = StreamSplitKafkaSource.<byte[]>builder()
                .setBootstrapServers(broker.bootstrapServers())
                .setTopics(input)
                .setBounded(StoppingOffsets.latest())
                .setRecordEmitter(passThrough(), PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                .build();
        var sink = KafkaSink.<byte[]>builder()
                .setBootstrapServers(broker.bootstrapServers())
                .setDeliveryGuarantee(guarantee)
                .setRecordSerializer(KafkaRecordSerializationSchema.<byte[]>builder()
                        .setTopic(output)
                        .setValueSerializationSchema(new BytesSchema())
                        .build());
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            sink.setTransactionalIdPrefix(output).setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "600000");
        }
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "bench-source").sinkTo(sink.build());
        long start = System.nanoTime();
        env.execute("copy " + guarantee);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        long copied = BenchmarkSupport.readToEnd(broker.bootstrapServers(), output);
        if (copied < settings.records()
                || guarantee == DeliveryGuarantee.EXACTLY_ONCE && copied != settings.records()) {
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
}
