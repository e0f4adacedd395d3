package io.streamsplit.benchmarks;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * How fast each reader consumes a prepared topic: a plain {@code KafkaConsumer} loop (the practical
 * limit), Flink's official {@code KafkaSource}, and StreamSplit's source, the two Flink sources in the
 * same bounded job shape (source → counting map → discarding sink), same consumer settings
 * (read_committed, byte arrays). Runs alternate raw, official, streamsplit after a warm-up; the
 * report gives records/s per run, medians, and the streamsplit/official and streamsplit/raw ratios
 * of each round. A Flink job's fixed cost (start, deploy, finish) is measured on an empty topic and
 * reported separately; "net" figures subtract its median. Every run's record count is checked.
 *
 * <pre>
 * mvn -B -q -DskipTests install -pl benchmarks -am
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.SourceThroughputBenchmark \
 *     -Dexec.args="--records 5000000 --partitions 4 --parallelism 2 --runs 5 --format bytes"
 * </pre>
 *
 * <p>{@code --format} is bytes (passed through), string (UTF-8) or json (a small POJO read with
 * Jackson); the raw loops decode the same way. {@link SourceMatrixBenchmark} runs many shapes.
 */
public final class SourceThroughputBenchmark {

    enum Reader { RAW, RAW_TUNED, OFFICIAL, STREAMSPLIT }

    record Settings(int records, int recordSize, int partitions, int parallelism, int runs, ValueFormat format) {
        static Settings parse(String... args) {
            ValueFormat format = ValueFormat.BYTES;
            List<String> ints = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--format") && i + 1 < args.length) {
                    format = ValueFormat.parse(args[++i]);
                } else {
                    ints.add(args[i]);
                }
            }
            Map<String, Integer> f = BenchmarkSupport.flags(BenchmarkSupport.commonDefaults(5_000_000, 5),
                    ints.toArray(String[]::new));
            return new Settings(f.get("records"), f.get("record-size"), f.get("partitions"), f.get("parallelism"),
                    f.get("runs"), format);
        }

        /** "100 B bytes, 4 partitions, p=2" */
        String shape() {
            return (format == ValueFormat.JSON ? "json" : recordSize + " B " + format.name().toLowerCase(Locale.ROOT))
                    + ", " + partitions + " partitions, p=" + parallelism;
        }
    }

    /** The report: per reader the counted runs' records/s (gross and net of the fixed job cost). */
    record Result(Map<Reader, List<Double>> gross, Map<Reader, List<Double>> net, Map<Reader, Double> fixedCostMillis,
            Map<Reader, List<Double>> firstRecordMillis) {
    }

    /** When the first record of the running Flink job reached the counting map (0: none yet). */
    static final AtomicLong FIRST_RECORD_NANOS = new AtomicLong();

    private SourceThroughputBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        run(Settings.parse(args), System.out);
    }

    static Result run(Settings settings, PrintStream out) throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            return run(settings, out, broker, "bench");
        }
    }

    /** One shape on a running broker; its topics are named after {@code prefix}. */
    static Result run(Settings settings, PrintStream out, EmbeddedKafkaBroker broker, String prefix) throws Exception {
        String bootstrap = broker.bootstrapServers();
        String empty = prefix + "-empty";
        String input = prefix + "-in";
        broker.createTopic(empty, settings.partitions());
        broker.createTopic(input, settings.partitions());
        BenchmarkSupport.writeRecords(bootstrap, input, settings.records(),
                settings.format().values(settings.recordSize()));
        out.printf(Locale.ROOT, "%,d records, %s%n", settings.records(), settings.shape());

        Map<Reader, Double> fixed = new EnumMap<>(Reader.class);
        fixed.put(Reader.RAW, 0.0);
        fixed.put(Reader.RAW_TUNED, 0.0);
        for (Reader reader : List.of(Reader.OFFICIAL, Reader.STREAMSPLIT)) {
            read(reader, bootstrap, empty, 0, settings); // warm-up
            List<Double> costs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                costs.add((double) read(reader, bootstrap, empty, 0, settings).toMillis());
            }
            fixed.put(reader, BenchmarkSupport.median(costs));
            out.printf(Locale.ROOT, "fixed job cost %-11s %,6.0f ms (median of 3 runs on an empty topic)%n", reader,
                    fixed.get(reader));
        }
        for (Reader reader : Reader.values()) {
            read(reader, bootstrap, input, settings.records(), settings); // warm-up
        }
        Map<Reader, List<Double>> gross = new EnumMap<>(Reader.class);
        Map<Reader, List<Double>> net = new EnumMap<>(Reader.class);
        Map<Reader, List<Double>> first = new EnumMap<>(Reader.class);
        for (int run = 1; run <= settings.runs(); run++) {
            for (Reader reader : Reader.values()) {
                FIRST_RECORD_NANOS.set(0);
                long start = System.nanoTime();
                long millis = read(reader, bootstrap, input, settings.records(), settings).toMillis();
                if (FIRST_RECORD_NANOS.get() != 0) {
                    first.computeIfAbsent(reader, r -> new ArrayList<>()).add((FIRST_RECORD_NANOS.get() - start) / 1e6);
                }
                double perSecond = settings.records() * 1000.0 / Math.max(1, millis);
                double netPerSecond = settings.records() * 1000.0 / Math.max(1, millis - fixed.get(reader));
                gross.computeIfAbsent(reader, r -> new ArrayList<>()).add(perSecond);
                net.computeIfAbsent(reader, r -> new ArrayList<>()).add(netPerSecond);
                out.printf(Locale.ROOT, "run %d %-11s %,11.0f rec/s %7.1f MB/s  net %,11.0f rec/s (%,d ms)%n", run,
                        reader, perSecond, perSecond * settings.recordSize() / (1024 * 1024), netPerSecond, millis);
            }
            out.printf(Locale.ROOT, "run %d ratios: streamsplit/official %.2f (net %.2f), streamsplit/raw net %.2f,"
                    + " streamsplit/raw-tuned net %.2f%n",
                    run, last(gross, Reader.STREAMSPLIT) / last(gross, Reader.OFFICIAL),
                    last(net, Reader.STREAMSPLIT) / last(net, Reader.OFFICIAL),
                    last(net, Reader.STREAMSPLIT) / last(net, Reader.RAW),
                    last(net, Reader.STREAMSPLIT) / last(net, Reader.RAW_TUNED));
        }
        for (Reader reader : Reader.values()) {
            List<Double> values = gross.get(reader);
            out.printf(Locale.ROOT, "median %-11s %,11.0f rec/s (min %,.0f, max %,.0f), net %,11.0f rec/s%n", reader,
                    BenchmarkSupport.median(values), values.stream().mapToDouble(d -> d).min().orElse(0),
                    values.stream().mapToDouble(d -> d).max().orElse(0), BenchmarkSupport.median(net.get(reader)));
        }
        for (Reader reader : List.of(Reader.OFFICIAL, Reader.STREAMSPLIT)) {
            out.printf(Locale.ROOT, "time to first record %-11s %,6.0f ms (median; job submitted -> first record"
                    + " in the map)%n", reader, BenchmarkSupport.median(first.getOrDefault(reader, List.of())));
        }
        return new Result(gross, net, fixed, first);
    }

    private static double last(Map<Reader, List<Double>> values, Reader reader) {
        List<Double> list = values.get(reader);
        return list.get(list.size() - 1);
    }

    /** Reads {@code topic} to its end with {@code reader}; checks the count; returns the wall time. */
    static Duration read(Reader reader, String bootstrap, String topic, long expected, Settings settings)
            throws Exception {
        long start = System.nanoTime();
        long count = switch (reader) {
            case RAW -> BenchmarkSupport.readToEnd(bootstrap, topic, settings.format().rawDecoder(), false);
            case RAW_TUNED -> BenchmarkSupport.readToEnd(bootstrap, topic, settings.format().rawDecoder(), true);
            default -> flinkRead(reader, bootstrap, topic, settings);
        };
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        if (count != expected) {
            throw new IllegalStateException(reader + " read " + count + " records, expected " + expected);
        }
        return elapsed;
    }

    private static long flinkRead(Reader reader, String bootstrap, String topic, Settings settings) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                BenchmarkSupport.jobConfiguration(settings.parallelism()));
        ValueFormat format = settings.format();
        Source<Object, ?, ?> source = reader == Reader.OFFICIAL
                ? KafkaSource.<Object>builder().setBootstrapServers(bootstrap).setTopics(topic)
                        .setStartingOffsets(OffsetsInitializer.earliest()).setBounded(OffsetsInitializer.latest())
                        .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                        .setDeserializer(format.official()).build()
                : StreamSplitKafkaSource.<Object>builder().setBootstrapServers(bootstrap).setTopics(topic)
                        .setBounded(StoppingOffsets.latest())
                        .setRecordEmitter(format.emitter(), format.type()).build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), reader.name().toLowerCase(Locale.ROOT))
                .map(new Counting()).returns(format.type()).sinkTo(new DiscardingSink<>());
        JobExecutionResult result = env.execute(reader + " read");
        Long count = result.getAccumulatorResult(Counting.NAME);
        return count == null ? 0 : count;
    }

    /** Counts records in an accumulator, so every run proves it read everything. */
    static final class Counting extends RichMapFunction<Object, Object> {
        private static final long serialVersionUID = 1L;
        static final String NAME = "records";
        private transient LongCounter counter;
        private transient boolean seen;

        @Override
        public void open(OpenContext openContext) {
            counter = new LongCounter();
            getRuntimeContext().addAccumulator(NAME, counter);
        }

        @Override
        public Object map(Object value) {
            counter.add(1L);
            if (!seen) {
                seen = true;
                FIRST_RECORD_NANOS.compareAndSet(0, System.nanoTime());
            }
            return value;
        }
    }
}
