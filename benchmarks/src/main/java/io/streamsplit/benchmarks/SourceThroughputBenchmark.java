package io.streamsplit.benchmarks;

import io.streamsplit.connector.kafka.source.reader.KafkaSourceReader;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * How fast each reader consumes a prepared topic: a plain {@code KafkaConsumer} loop (the practical
 * limit), Flink's official {@code KafkaSource}, and StreamSplit's source, the two Flink sources in the
 * same bounded job shape (source → counting map → discarding sink), same consumer settings
 * (read_committed, byte arrays). Runs alternate raw, official, streamsplit after a warm-up (even
 * rounds in reverse order); the report gives records/s per run, medians, and the streamsplit/official
 * and streamsplit/raw ratios of each round, then their medians with the lowest and highest round
 * ({@link RoundRatio}). A Flink job's fixed cost (start, deploy, finish) is measured on an empty topic and
 * reported separately, and "steady" figures are measured from each run's first record to the end of
 * its input, so job start and deployment do not dilute them. Every run's record count is checked.
 * All Flink jobs of a shape run on one MiniCluster started up front (a long-running cluster, not
 * one per job); a heap collection precedes each run; on Linux each run also prints the CPU seconds
 * of the source's fetcher and task threads, the JIT, GC and the broker.
 *
 * <pre>
 * mvn -B -q -DskipTests install -pl benchmarks -am
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.SourceThroughputBenchmark \
 *     -Dexec.args="--records 5000000 --partitions 4 --parallelism 2 --runs 5 --format bytes"
 * </pre>
 *
 * <p>{@code --format} is bytes (passed through), string (UTF-8) or json (a small POJO read with
 * Jackson 2; json3 with a hand-written Jackson 3 bean, json-format with the connector's JsonFormat);
 * the raw loops decode the same way. {@code --b-format json-format} runs the second StreamSplit run of
 * each round with another JSON format: an A/B of two ways to read the same records. StreamSplit's source fetches more per request than
 * Kafka's defaults ({@code max.poll.records} 2,000, and {@code max.partition.fetch.bytes} sized per
 * reader by {@link KafkaSourceReader#partitionFetchBytes(int)}: 8 MB for one partition, down to
 * 1 MB); the official source runs with Kafka's defaults, as a user wiring it by hand gets it, unless
 * {@code --official-tuned 1} gives it the same two settings for the shape. {@code --object-reuse 1}
 * runs both Flink jobs with object reuse, so chained operators pass elements on without copying them.
 * {@code --aa 1} adds a second run of StreamSplit's source to every round (an A/A comparison): the
 * ratio of two identical readers shows how far this machine's noise alone moves a ratio. {@code --b
 * key=value[,key=value...]} makes that second run an A/B instead: it gets these Kafka consumer
 * settings on top of the first run's, so a setting is compared with the defaults inside one
 * invocation (run an A/A of the same shape to know what ratio is noise).
 * {@link SourceMatrixBenchmark} runs many shapes.
 */
public final class SourceThroughputBenchmark {

    /** The readers; {@link #STREAMSPLIT_AGAIN} is a second run of StreamSplit's source, only with {@code --aa 1}. */
    public enum Reader {
        RAW,
        RAW_TUNED,
        OFFICIAL,
        STREAMSPLIT,
        STREAMSPLIT_AGAIN;

        /** The readers every run compares. */
        static final List<Reader> COMPARED = List.of(RAW, RAW_TUNED, OFFICIAL, STREAMSPLIT);
    }

    /** The report: per reader the counted runs' records/s (whole run, and first record to end of input). */
    record Result(
            Map<Reader, List<Double>> gross,
            Map<Reader, List<Double>> steady,
            Map<Reader, Double> fixedCostMillis,
            Map<Reader, List<Double>> firstRecordMillis) {

        /** streamsplit/official over whole runs, job start included. */
        RoundRatio ssOverOfficial() {
            return RoundRatio.of(gross, Reader.STREAMSPLIT, Reader.OFFICIAL);
        }

        /** streamsplit/official from first record to end of input. */
        RoundRatio ssOverOfficialSteady() {
            return RoundRatio.of(steady, Reader.STREAMSPLIT, Reader.OFFICIAL);
        }

        /** streamsplit/raw tuned from first record to end of input. */
        RoundRatio ssOverRawTunedSteady() {
            return RoundRatio.of(steady, Reader.STREAMSPLIT, Reader.RAW_TUNED);
        }
    }

    private SourceThroughputBenchmark() {}

    public static void main(String[] args) throws Exception {
        BenchmarkSupport.requireFullJit(SourceThroughputBenchmark.class);
        run(ThroughputSettings.parse(args), System.out);
    }

    static Result run(ThroughputSettings settings, PrintStream out) throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            return run(settings, out, broker, "bench");
        }
    }

    /** One shape on a running broker; its topics are named after {@code prefix}. */
    static Result run(ThroughputSettings settings, PrintStream out, EmbeddedKafkaBroker broker, String prefix)
            throws Exception {
        try (MiniCluster cluster = startCluster(settings.parallelism())) {
            return run(settings, out, broker, prefix, cluster);
        }
    }

    /**
     * One MiniCluster serves every job of a shape, as a long-running cluster would: starting one
     * takes about a second here (its RPC system loads and JIT-compiles anew each time), which
     * would otherwise be counted as the source's start and compete for the CPU during reading.
     */
    public static MiniCluster startCluster(int parallelism) throws Exception {
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(BenchmarkSupport.jobConfiguration(parallelism))
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(parallelism)
                .build());
        cluster.start();
        return cluster;
    }

    private static Result run(
            ThroughputSettings settings,
            PrintStream out,
            EmbeddedKafkaBroker broker,
            String prefix,
            MiniCluster cluster)
            throws Exception {
        String bootstrap = broker.bootstrapServers();
        String empty = prefix + "-empty";
        String input = prefix + "-in";
        broker.createTopic(empty, settings.partitions());
        broker.createTopic(input, settings.partitions());
        BenchmarkSupport.writeRecords(
                bootstrap, input, settings.records(), settings.format().values(settings.recordSize()));
        out.printf(
                Locale.ROOT,
                "%,d records, %s%s%s%s%n",
                settings.records(),
                settings.shape(),
                settings.officialTuned() ? " (official with StreamSplit's fetch settings)" : "",
                settings.objectReuse() ? " (object reuse on)" : "",
                settings.b().isEmpty() && settings.bFormat() == null
                        ? ""
                        : " (STREAMSPLIT_AGAIN with "
                                + (settings.bFormat() == null ? "" : "format " + settings.bFormat())
                                + (settings.b().isEmpty() ? "" : " " + settings.b()) + ")");

        Map<Reader, Double> fixed = new EnumMap<>(Reader.class);
        fixed.put(Reader.RAW, 0.0);
        fixed.put(Reader.RAW_TUNED, 0.0);
        for (Reader reader : List.of(Reader.OFFICIAL, Reader.STREAMSPLIT)) {
            read(reader, cluster, bootstrap, empty, 0, settings); // warm-up
            List<Double> costs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                costs.add((double)
                        read(reader, cluster, bootstrap, empty, 0, settings).toMillis());
            }
            fixed.put(reader, BenchmarkSupport.median(costs));
            out.printf(
                    Locale.ROOT,
                    "fixed job cost %-11s %,6.0f ms (median of 3 runs on an empty topic)%n",
                    reader,
                    fixed.get(reader));
        }
        for (Reader reader : settings.readers()) {
            read(reader, cluster, bootstrap, input, settings.records(), settings); // warm-up
        }
        Map<Reader, List<Double>> gross = new EnumMap<>(Reader.class);
        Map<Reader, List<Double>> steady = new EnumMap<>(Reader.class);
        Map<Reader, List<Double>> first = new EnumMap<>(Reader.class);
        for (int run = 1; run <= settings.runs(); run++) {
            // odd rounds in order, even rounds reversed: a drift during a round (JIT settling, the old
            // generation filling) then favours no reader
            List<Reader> order = new ArrayList<>(settings.readers());
            if (run % 2 == 0) {
                Collections.reverse(order);
            }
            for (Reader reader : order) {
                System.gc(); // each run starts from a collected heap instead of paying for the previous run's garbage
                ReadClock.reset();
                long start = System.nanoTime();
                ThreadCpu cpu = ThreadCpu.start();
                Duration elapsed = read(reader, cluster, bootstrap, input, settings.records(), settings);
                if (cpu != null) {
                    cpu.close();
                }
                long millis = elapsed.toMillis();
                if (ReadClock.firstRecordNanos() != 0) {
                    first.computeIfAbsent(reader, r -> new ArrayList<>())
                            .add((ReadClock.firstRecordNanos() - start) / 1e6);
                }
                double perSecond = settings.records() * 1e9 / Math.max(1, elapsed.toNanos());
                double steadyPerSecond = settings.records() * 1e9 / ReadClock.steadyNanos();
                gross.computeIfAbsent(reader, r -> new ArrayList<>()).add(perSecond);
                steady.computeIfAbsent(reader, r -> new ArrayList<>()).add(steadyPerSecond);
                out.printf(
                        Locale.ROOT,
                        "run %d %-11s %,11.0f rec/s %7.1f MB/s  steady %,11.0f rec/s (%,d ms)%n",
                        run,
                        reader,
                        perSecond,
                        perSecond * settings.recordSize() / (1024 * 1024),
                        steadyPerSecond,
                        millis);
                if (cpu != null) {
                    out.printf(Locale.ROOT, "      %-11s %s%n", "", cpu.report());
                }
            }
            out.printf(
                    Locale.ROOT,
                    "run %d ratios: streamsplit/official %.2f (steady %.2f), streamsplit/raw steady"
                            + " %.2f, streamsplit/raw-tuned steady %.2f%n",
                    run,
                    last(gross, Reader.STREAMSPLIT) / last(gross, Reader.OFFICIAL),
                    last(steady, Reader.STREAMSPLIT) / last(steady, Reader.OFFICIAL),
                    last(steady, Reader.STREAMSPLIT) / last(steady, Reader.RAW),
                    last(steady, Reader.STREAMSPLIT) / last(steady, Reader.RAW_TUNED));
            if (settings.secondRun()) {
                out.printf(
                        Locale.ROOT,
                        "run %d %s: streamsplit-again/streamsplit steady %.2f%n",
                        run,
                        settings.secondRunName(),
                        last(steady, Reader.STREAMSPLIT_AGAIN) / last(steady, Reader.STREAMSPLIT));
            }
        }
        for (Reader reader : settings.readers()) {
            List<Double> values = gross.get(reader);
            out.printf(
                    Locale.ROOT,
                    "median %-11s %,11.0f rec/s (min %,.0f, max %,.0f), steady %,11.0f rec/s%n",
                    reader,
                    BenchmarkSupport.median(values),
                    values.stream().mapToDouble(d -> d).min().orElse(0),
                    values.stream().mapToDouble(d -> d).max().orElse(0),
                    BenchmarkSupport.median(steady.get(reader)));
        }
        for (Reader reader : List.of(Reader.OFFICIAL, Reader.STREAMSPLIT)) {
            out.printf(
                    Locale.ROOT,
                    "time to first record %-11s %,6.0f ms (median; job submitted -> first record" + " in the map)%n",
                    reader,
                    BenchmarkSupport.median(first.getOrDefault(reader, List.of())));
        }
        Result result = new Result(gross, steady, fixed, first);
        out.printf(
                Locale.ROOT,
                "streamsplit/official %s, steady %s; streamsplit/raw-tuned steady %s (median of"
                        + " rounds, lowest–highest round)%n",
                result.ssOverOfficial(),
                result.ssOverOfficialSteady(),
                result.ssOverRawTunedSteady());
        if (settings.secondRun()) {
            out.printf(
                    Locale.ROOT,
                    "%s: streamsplit-again/streamsplit %s, steady %s%s%n",
                    settings.secondRunName(),
                    RoundRatio.of(gross, Reader.STREAMSPLIT_AGAIN, Reader.STREAMSPLIT),
                    RoundRatio.of(steady, Reader.STREAMSPLIT_AGAIN, Reader.STREAMSPLIT),
                    settings.b().isEmpty()
                            ? ": two runs of the same source differ this much here"
                            : ": what " + settings.b() + " changes (an A/A run of the shape shows the noise)");
        }
        return result;
    }

    private static double last(Map<Reader, List<Double>> values, Reader reader) {
        List<Double> list = values.get(reader);
        return list.get(list.size() - 1);
    }

    /** Reads {@code topic} to its end with {@code reader}; checks the count; returns the wall time. */
    static Duration read(
            Reader reader,
            MiniCluster cluster,
            String bootstrap,
            String topic,
            long expected,
            ThroughputSettings settings)
            throws Exception {
        long start = System.nanoTime();
        long count = switch (reader) {
            case RAW ->
                BenchmarkSupport.readToEnd(bootstrap, topic, settings.format().rawDecoder(), false);
            case RAW_TUNED ->
                BenchmarkSupport.readToEnd(bootstrap, topic, settings.format().rawDecoder(), true);
            default -> flinkRead(reader, cluster, bootstrap, topic, settings);
        };
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        if (count != expected) {
            throw new IllegalStateException(reader + " read " + count + " records, expected " + expected);
        }
        return elapsed;
    }

    private static long flinkRead(
            Reader reader, MiniCluster cluster, String bootstrap, String topic, ThroughputSettings settings)
            throws Exception {
        JobExecutionResult result =
                cluster.executeJobBlocking(BenchmarkJobs.jobGraph(reader, bootstrap, topic, settings));
        Long count = result.getAccumulatorResult(Counting.NAME);
        return count == null ? 0 : count;
    }
}
