package io.streamsplit.benchmarks;

import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Flink SQL, {@code INSERT INTO blackhole SELECT * FROM t}: a JSON topic read to its end through a
 * {@code 'streamsplit-kafka'} table and through a {@code 'kafka'} table, the same {@code WITH} clause,
 * interleaved rounds (the order alternates), records/s from job submission to the end of the bounded
 * read, and the ratio per round. One JVM with the broker; {@code isolated.IsolatedTableBenchmark} is the same
 * with the broker and every run in JVMs of their own.
 *
 * <pre>
 * mvn -B -q install -DskipTests; cd benchmarks; mvn -B -q dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -Xmx2g -cp target/classes:$(cat cp.txt) io.streamsplit.benchmarks.TableThroughputBenchmark \
 *     --records 2000000 --rounds 5 --partitions 4 --parallelism 2 --format json|raw --warmup 1
 * </pre>
 */
public final class TableThroughputBenchmark {

    /** One round: records/s of each connector. */
    record Round(double streamsplit, double official) {
        double ratio() {
            return streamsplit / official;
        }
    }

    private TableThroughputBenchmark() {}

    public static void main(String[] args) throws Exception {
        BenchmarkSupport.requireFullJit(TableThroughputBenchmark.class);
        Map<String, String> f = options(Map.of(), args);
        run(
                Integer.parseInt(f.get("records")),
                Integer.parseInt(f.get("rounds")),
                Integer.parseInt(f.get("partitions")),
                Integer.parseInt(f.get("parallelism")),
                f.get("format"),
                Integer.parseInt(f.get("warmup")),
                System.out);
    }

    /** The options both SQL harnesses take, with their defaults, and {@code more} of a harness's own. */
    public static Map<String, String> options(Map<String, String> more, String... args) {
        Map<String, String> defaults = new HashMap<>(Map.of(
                "records",
                "2000000",
                "rounds",
                "5",
                "partitions",
                "4",
                "parallelism",
                "2",
                "format",
                "json",
                "warmup",
                "1"));
        defaults.putAll(more);
        return BenchmarkSupport.options(defaults, args);
    }

    /** Runs the rounds, prints one line each and the median ratio with its range; returns the rounds. */
    /**
     * @param format {@code json}: three columns parsed from each value; {@code raw}: the value as one
     *     {@code BYTES} column, so that the source's share of the cost shows
     * @param warmup rounds run first and not counted: the JVM's first jobs are slower, whichever runs them
     */
    static List<Round> run(
            int records, int rounds, int partitions, int parallelism, String format, int warmup, PrintStream out)
            throws Exception {
        List<Round> results = new ArrayList<>();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            broker.createTopic("sql-in", partitions);
            BenchmarkSupport.writeRecords(
                    broker.bootstrapServers(), "sql-in", records, TableThroughputBenchmark::value);
            out.printf(
                    Locale.ROOT,
                    "SQL SELECT * into blackhole: %,d records as %s, %d partitions, parallelism %d, %d warm-up round(s)%n",
                    records,
                    format,
                    partitions,
                    parallelism,
                    warmup);
            out.printf(Locale.ROOT, "%6s %16s %16s %8s%n", "round", "streamsplit r/s", "kafka r/s", "ratio");
            for (int round = 0; round < warmup; round++) {
                recordsPerSecond("streamsplit-kafka", broker.bootstrapServers(), records, parallelism, format);
                recordsPerSecond("kafka", broker.bootstrapServers(), records, parallelism, format);
            }
            for (int round = 1; round <= rounds; round++) {
                boolean oursFirst = round % 2 == 1;
                double first = recordsPerSecond(
                        oursFirst ? "streamsplit-kafka" : "kafka",
                        broker.bootstrapServers(),
                        records,
                        parallelism,
                        format);
                double second = recordsPerSecond(
                        oursFirst ? "kafka" : "streamsplit-kafka",
                        broker.bootstrapServers(),
                        records,
                        parallelism,
                        format);
                Round r = oursFirst ? new Round(first, second) : new Round(second, first);
                results.add(r);
                out.printf(Locale.ROOT, "%6d %16.0f %16.0f %8.2f%n", round, r.streamsplit(), r.official(), r.ratio());
            }
        }
        List<Double> ratios = results.stream().map(Round::ratio).toList();
        out.printf(
                Locale.ROOT,
                "streamsplit-kafka / kafka: %.2f (rounds %.2f–%.2f)%n",
                BenchmarkSupport.median(ratios),
                ratios.stream().mapToDouble(d -> d).min().orElse(Double.NaN),
                ratios.stream().mapToDouble(d -> d).max().orElse(Double.NaN));
        return results;
    }

    /** Record {@code i} of topic {@code sql-in}: a small JSON object of the three columns. */
    public static byte[] value(int i) {
        return ("{\"id\":" + i + ",\"page\":\"/products/" + (i % 1000) + "\",\"amount\":" + (i % 97) + ".5}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads the topic {@code sql-in} to its end through a table of {@code connector} into a blackhole; records/s
     * from job submission to the end.
     */
    public static double recordsPerSecond(
            String connector, String bootstrapServers, int records, int parallelism, String format) throws Exception {
        String columns = format.equals("raw") ? "v BYTES" : "id INT, page STRING, amount DOUBLE";
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sql.getConfig().set("parallelism.default", String.valueOf(parallelism));
        sql.executeSql("CREATE TABLE src (" + columns + ") WITH ('connector' = '" + connector
                + "', 'topic' = 'sql-in', 'properties.bootstrap.servers' = '" + bootstrapServers + "',"
                + " 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',"
                + " 'value.format' = '" + format + "')");
        sql.executeSql("CREATE TABLE sink (" + columns + ") WITH ('connector' = 'blackhole')");
        long start = System.nanoTime();
        sql.executeSql("INSERT INTO sink SELECT * FROM src").await();
        return records / ((System.nanoTime() - start) / 1e9);
    }
}
