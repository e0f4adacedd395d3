package io.streamsplit.benchmarks.isolated;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.TableThroughputBenchmark;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@link TableThroughputBenchmark} with the broker in a JVM of its own ({@link BrokerProcess}) and every
 * measured run a fresh JVM: {@code INSERT INTO blackhole SELECT * FROM t} over a {@code 'streamsplit-kafka'}
 * and a {@code 'kafka'} table, interleaved rounds (the order alternates). Per run: records/s from job
 * submission to the end (as the one-JVM harness), records/s over the JVM's whole life (start, planning,
 * reading), the JVM's CPU seconds and peak RSS; per round the ratios, at the end their medians and ranges.
 *
 * <pre>
 * mvn -B -q -DskipTests install -pl benchmarks -am
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.isolated.IsolatedTableBenchmark \
 *     -Dexec.args="--records 2000000 --rounds 5 --partitions 4 --parallelism 2 --format json --xmx 2g --warmup 1"
 * </pre>
 */
public final class IsolatedTableBenchmark {

    private static final String RESULT = "RECORDS_PER_SECOND=";

    /** One run: the job's records/s, the JVM's wall seconds, CPU seconds and peak RSS in MB. */
    record Run(double jobRate, double wallSeconds, double cpuSeconds, double peakRssMb) {}

    private IsolatedTableBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> f = TableThroughputBenchmark.options(Map.of("xmx", "2g"), args);
        run(
                Integer.parseInt(f.get("records")),
                Integer.parseInt(f.get("rounds")),
                Integer.parseInt(f.get("partitions")),
                Integer.parseInt(f.get("parallelism")),
                f.get("format"),
                f.get("xmx"),
                Integer.parseInt(f.get("warmup")),
                System.out);
    }

    /**
     * One measured run, in its own JVM: reads the topic through {@code args[0]}'s table, prints its rate, CPU
     * seconds and peak RSS.
     */
    public static final class Reader {

        private Reader() {}

        public static void main(String[] args) throws Exception {
            double rate = TableThroughputBenchmark.recordsPerSecond(
                    args[0], args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4]);
            // its own CPU and peak RSS at the end, as ReaderProcess reports them: nothing after this counts
            long pid = ProcessHandle.current().pid();
            System.out.println(RESULT + rate + " " + ProcStats.cpuSeconds(pid) + " " + ProcStats.peakRssMb(pid));
            System.out.flush();
            System.exit(0); // the planner's and Kafka's threads need not be waited for
        }
    }

    static List<double[]> run(
            int records,
            int rounds,
            int partitions,
            int parallelism,
            String format,
            String xmx,
            int warmup,
            PrintStream out)
            throws Exception {
        Path work = Files.createTempDirectory("isolated-table");
        List<double[]> ratios = new ArrayList<>();
        try (BrokerProcess broker = BrokerProcess.start(work)) {
            String bootstrap = broker.bootstrapServers();
            IsolatedBenchmark.createTopics(bootstrap, List.of("sql-in"), partitions);
            BenchmarkSupport.writeRecords(bootstrap, "sql-in", records, TableThroughputBenchmark::value);
            out.printf(
                    Locale.ROOT,
                    "SQL SELECT * into blackhole, a JVM per run: %,d records as %s, %d partitions, parallelism %d,"
                            + " -Xmx%s; %d uncounted run(s) of each first%n",
                    records,
                    format,
                    partitions,
                    parallelism,
                    xmx,
                    warmup);
            List<String> common = List.of(bootstrap, String.valueOf(records), String.valueOf(parallelism), format);
            for (int i = 0; i < warmup; i++) {
                measure("streamsplit-kafka", common, xmx, work);
                measure("kafka", common, xmx, work);
            }
            for (int round = 1; round <= rounds; round++) {
                boolean oursFirst = round % 2 == 1;
                Run first = measure(oursFirst ? "streamsplit-kafka" : "kafka", common, xmx, work);
                Run second = measure(oursFirst ? "kafka" : "streamsplit-kafka", common, xmx, work);
                Run ours = oursFirst ? first : second;
                Run official = oursFirst ? second : first;
                double[] ratio = {
                    ours.jobRate() / official.jobRate(),
                    official.wallSeconds() / ours.wallSeconds(),
                    ours.cpuSeconds() / official.cpuSeconds(),
                    ours.peakRssMb() / official.peakRssMb()
                };
                ratios.add(ratio);
                out.printf(
                        Locale.ROOT,
                        "round %d  job r/s %,9.0f vs %,9.0f (%.2f)  whole JVM %5.1f vs %5.1f s (%.2f)"
                                + "  CPU %5.1f vs %5.1f s  peak RSS %4.0f vs %4.0f MB%n",
                        round,
                        ours.jobRate(),
                        official.jobRate(),
                        ratio[0],
                        ours.wallSeconds(),
                        official.wallSeconds(),
                        ratio[1],
                        ours.cpuSeconds(),
                        official.cpuSeconds(),
                        ours.peakRssMb(),
                        official.peakRssMb());
            }
        }
        String[] names = {"job records/s", "whole-JVM records/s", "CPU seconds", "peak RSS"};
        for (int i = 0; i < names.length; i++) {
            int column = i;
            List<Double> values = ratios.stream().map(r -> r[column]).toList();
            out.printf(
                    Locale.ROOT,
                    "streamsplit-kafka / kafka, %-20s %.2f (rounds %.2f–%.2f)%n",
                    names[i],
                    BenchmarkSupport.median(values),
                    values.stream().mapToDouble(d -> d).min().orElse(Double.NaN),
                    values.stream().mapToDouble(d -> d).max().orElse(Double.NaN));
        }
        return ratios;
    }

    private static Run measure(String connector, List<String> common, String xmx, Path work) throws Exception {
        List<String> args = new ArrayList<>(List.of(connector));
        args.addAll(common);
        Path log = Files.createTempFile(work, connector, ".log");
        long start = System.nanoTime();
        Process reader = JvmLauncher.start(List.of("-Xmx" + xmx), Reader.class, args, log);
        reader.waitFor();
        double wall = (System.nanoTime() - start) / 1e9;
        String[] result = Files.readAllLines(log).stream()
                .filter(line -> line.startsWith(RESULT))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "The " + connector + " run printed no result (exit " + reader.exitValue() + "); see " + log))
                .substring(RESULT.length())
                .split(" ");
        return new Run(
                Double.parseDouble(result[0]), wall, Double.parseDouble(result[1]), Double.parseDouble(result[2]));
    }
}
