package io.streamsplit.benchmarks.isolated;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.RoundRatio;
import io.streamsplit.benchmarks.SourceThroughputBenchmark.Reader;
import io.streamsplit.benchmarks.ThroughputSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Throughput, start-up and memory as a user's job sees them: the broker runs in a JVM of its own
 * ({@link BrokerProcess}) and every measured run is a fresh reader JVM ({@link ReaderProcess}), so
 * a source that spends less CPU per record can show it, and cold class loading and JIT count as at a
 * real job start. Per shape: one uncounted warm-up run of each reader, then {@code --rounds} rounds
 * of official and StreamSplit runs, even rounds in reverse order. Per run it prints the wall time
 * to the last record, the start-up breakdown to the first record, records/s over the whole run and
 * first → last, the reader JVM's CPU seconds and peak RSS, GC time and the broker's CPU seconds;
 * per shape the ratios StreamSplit / official as medians of the rounds with the lowest and highest
 * round ({@link RoundRatio}); at the end each target with the shapes that miss it.
 *
 * <pre>
 * mvn -B -q -DskipTests install -pl benchmarks -am
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.isolated.IsolatedBenchmark \
 *     -Dexec.args="--records 5000000 --max-mb 1024 --rounds 5 --record-sizes 10,100,1024 --partitions 1,4,16,64 \
 *                  --parallelism 1,2 --formats bytes,string,json --xmx 2g --out target/isolated"
 * </pre>
 *
 * <p>{@code --b key=value,...} adds a third reader per round: StreamSplit with these consumer settings
 * (an A/B in the same rounds); {@code --jvm "-XX:..."} passes options to every reader JVM.
 */
public final class IsolatedBenchmark {

    /** One shape's runs per reader, in round order. */
    record ShapeResult(String shape, Map<Reader, List<RunFigures>> runs, Map<Reader, List<Double>> brokerCpu) {

        Map<Reader, List<Double>> metric(ToDoubleFunction<RunFigures> f) {
            Map<Reader, List<Double>> values = new EnumMap<>(Reader.class);
            runs.forEach((reader, list) ->
                    values.put(reader, list.stream().mapToDouble(f).boxed().toList()));
            return values;
        }

        RoundRatio ratio(ToDoubleFunction<RunFigures> f) {
            return RoundRatio.of(metric(f), Reader.STREAMSPLIT, Reader.OFFICIAL);
        }

        double median(Reader reader, ToDoubleFunction<RunFigures> f) {
            return BenchmarkSupport.median(metric(f).get(reader));
        }
    }

    private IsolatedBenchmark() {}

    public static void main(String[] args) throws Exception {
        IsolatedSettings settings = IsolatedSettings.parse(args);
        List<ShapeResult> results = run(settings, System.out);
        if (settings.out() != null) {
            IsolatedReport.write(results, settings.out());
        }
    }

    static List<ShapeResult> run(IsolatedSettings settings, PrintStream out) throws Exception {
        Path work = Files.createTempDirectory("isolated-bench");
        List<ShapeResult> results = new ArrayList<>();
        try (BrokerProcess broker = BrokerProcess.start(work)) {
            int n = 0;
            for (ThroughputSettings shape : settings.shapes()) {
                results.add(runShape(settings, shape, broker, "iso-" + n++, work, out));
            }
        }
        IsolatedReport.print(results, out);
        return results;
    }

    private static ShapeResult runShape(
            IsolatedSettings settings,
            ThroughputSettings shape,
            BrokerProcess broker,
            String topic,
            Path work,
            PrintStream out)
            throws Exception {
        createTopics(broker.bootstrapServers(), List.of(topic), shape.partitions());
        BenchmarkSupport.writeRecords(
                broker.bootstrapServers(),
                topic,
                shape.records(),
                shape.format().values(shape.recordSize()));
        out.printf(
                Locale.ROOT,
                "%n%,d records, %s, reader JVMs %s%n",
                shape.records(),
                shape.shape(),
                settings.jvmOptions());
        List<Reader> readers = settings.readers();
        for (int i = 0; i < settings.warmup(); i++) {
            for (Reader reader : readers) {
                runOnce(settings, shape, reader, broker, topic, work);
            }
        }
        Map<Reader, List<RunFigures>> runs = new EnumMap<>(Reader.class);
        Map<Reader, List<Double>> brokerCpu = new EnumMap<>(Reader.class);
        for (int round = 1; round <= settings.rounds(); round++) {
            List<Reader> order = new ArrayList<>(readers);
            if (round % 2 == 0) {
                Collections.reverse(order);
            }
            for (Reader reader : order) {
                double brokerBefore = broker.cpuSeconds();
                RunFigures figures = runOnce(settings, shape, reader, broker, topic, work);
                double brokerSeconds = broker.cpuSeconds() - brokerBefore;
                runs.computeIfAbsent(reader, r -> new ArrayList<>()).add(figures);
                brokerCpu.computeIfAbsent(reader, r -> new ArrayList<>()).add(brokerSeconds);
                out.printf(
                        Locale.ROOT,
                        "round %d %-17s last record %,6.0f ms, first %,5.0f ms (jvm %.0f + %s)  whole %,10.0f"
                                + " rec/s  first->last %,10.0f rec/s  cpu %5.1f s  peak RSS %,4.0f MB  heap %,4.0f MB  gc %,4.0f ms"
                                + "  broker cpu %4.1f s%n",
                        round,
                        reader,
                        figures.lastRecordAtMillis(),
                        figures.firstRecordAtMillis(),
                        figures.mainAtMillis(),
                        figures.breakdown(),
                        figures.wholeRecordsPerSecond(),
                        figures.steadyRecordsPerSecond(),
                        figures.cpuSeconds(),
                        figures.peakRssMb(),
                        figures.heapCommittedMb(),
                        figures.gcMillis(),
                        brokerSeconds);
            }
        }
        deleteTopic(broker.bootstrapServers(), topic);
        ShapeResult result = new ShapeResult(shape.shape(), runs, brokerCpu);
        IsolatedReport.printShape(result, out);
        return result;
    }

    private static RunFigures runOnce(
            IsolatedSettings settings,
            ThroughputSettings shape,
            Reader reader,
            BrokerProcess broker,
            String topic,
            Path work)
            throws IOException, InterruptedException {
        Path log = work.resolve("reader.log");
        List<String> args = new ArrayList<>(List.of(
                "--reader", reader.name(),
                "--bootstrap", broker.bootstrapServers(),
                "--topic", topic,
                "--records", String.valueOf(shape.records()),
                "--record-size", String.valueOf(shape.recordSize()),
                "--partitions", String.valueOf(shape.partitions()),
                "--parallelism", String.valueOf(shape.parallelism()),
                "--format", shape.format().name(),
                "--official-tuned", shape.officialTuned() ? "1" : "0"));
        if (!shape.b().isEmpty()) {
            args.add("--b");
            args.add(String.join(
                    ",",
                    shape.b().entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue())
                            .toList()));
        }
        Process process = JvmLauncher.start(settings.jvmOptions(), ReaderProcess.class, args, log);
        int exit = process.waitFor();
        List<String> lines = Files.readAllLines(log);
        return lines.stream()
                .filter(line -> line.startsWith(RunFigures.PREFIX))
                .findFirst()
                .filter(line -> exit == 0)
                .map(RunFigures::parse)
                .orElseThrow(() -> new IllegalStateException(reader + " run on " + shape.shape() + " exited with "
                        + exit + " and no result; its output:\n" + String.join("\n", lines)));
    }

    /** Creates {@code topics} and waits until each partition has a leader, so the first writes are not refused. */
    public static void createTopics(String bootstrap, List<String> topics, int partitions) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(topics.stream()
                            .map(topic -> new NewTopic(topic, partitions, (short) 1))
                            .toList())
                    .all()
                    .get();
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (!haveLeaders(admin, topics)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The partitions of " + topics + " got no leader within 30 s");
                }
                java.util.concurrent.TimeUnit.MILLISECONDS.sleep(50);
            }
        }
    }

    /** Whether every partition of {@code topics} has a leader; false while the broker does not know them yet. */
    private static boolean haveLeaders(Admin admin, List<String> topics) throws InterruptedException {
        try {
            return admin.describeTopics(topics).allTopicNames().get().values().stream()
                    .flatMap(description -> description.partitions().stream())
                    .allMatch(partition ->
                            partition.leader() != null && !partition.leader().isEmpty());
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
                return false; // created, not yet in the metadata the broker answers from
            }
            throw new IllegalStateException("Describing " + topics + " failed", e.getCause());
        }
    }

    private static void deleteTopic(String bootstrap, String topic) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            admin.deleteTopics(List.of(topic)).all().get();
        }
    }

    private static Admin admin(String bootstrap) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return Admin.create(props);
    }
}
