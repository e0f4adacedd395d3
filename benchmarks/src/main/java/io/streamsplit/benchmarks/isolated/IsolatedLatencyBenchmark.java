package io.streamsplit.benchmarks.isolated;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.LatencyBenchmark;
import io.streamsplit.benchmarks.LatencyBenchmark.Percentiles;
import io.streamsplit.benchmarks.LatencyBenchmark.Reader;
import io.streamsplit.benchmarks.RoundRatio;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end latency at a fixed rate with each process where a user has it: the broker in its own
 * JVM, the producer in the harness, the job in a fresh reader JVM ({@link LatencyProcess}), so the
 * producer and the broker do not share the job's heap, GC and JIT. Each job first gets
 * {@code --jit-seconds} of records at the same rate that are not counted (its JVM is new), then
 * {@code --seconds} that are. Official and StreamSplit
 * alternate (even rounds reversed) after a short warm-up round; per run p50, p99, p99.9 and max in
 * milliseconds, then medians of the rounds.
 *
 * <pre>
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.isolated.IsolatedLatencyBenchmark \
 *     -Dexec.args="--rate 20000 --seconds 15 --partitions 4 --parallelism 2 --runs 5"
 * </pre>
 *
 * <p>{@code --jvm '-XX:+UseZGC ...'} adds options to every job JVM (after its {@code -Xmx1g}), for
 * an A/B of JVM settings. {@code --consumer 1} adds a third run per round: a plain
 * {@code KafkaConsumer} loop in the same kind of JVM, no Flink — the floor that this machine, broker
 * and producer set for any source.
 */
public final class IsolatedLatencyBenchmark {

    private IsolatedLatencyBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, Integer> defaults = LatencyBenchmark.defaults();
        defaults.put("seconds", 15);
        defaults.put("runs", 5);
        defaults.put("warmup-seconds", 3);
        defaults.put("jit-seconds", 10);
        defaults.put("consumer", 0);
        List<String> jvm = new ArrayList<>(List.of("-Xmx1g"));
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--jvm") && i + 1 < args.length) {
                jvm.addAll(BenchmarkSupport.jvmOptions(args[++i]));
            } else {
                rest.add(args[i]);
            }
        }
        Map<String, Integer> f = BenchmarkSupport.flags(defaults, rest.toArray(String[]::new));
        run(f, jvm, System.out);
    }

    static Map<String, List<Percentiles>> run(Map<String, Integer> f, List<String> jvm, PrintStream out)
            throws Exception {
        out.printf(
                Locale.ROOT,
                "latency at %,d records/s for %d s after %d s not counted, %d B records, %d partitions, parallelism"
                        + " %d; broker and job each in a JVM of its own, job JVM %s%n",
                f.get("rate"),
                f.get("seconds"),
                f.get("jit-seconds"),
                f.get("record-size"),
                f.get("partitions"),
                f.get("parallelism"),
                jvm);
        Path work = Files.createTempDirectory("isolated-latency");
        Map<String, List<Percentiles>> results = new LinkedHashMap<>();
        int topic = 0;
        try (BrokerProcess broker = BrokerProcess.start(work)) {
            for (int round = 0; round <= f.get("runs"); round++) { // round 0 warms the broker up
                List<String> order = new ArrayList<>();
                for (Reader reader : Reader.values()) {
                    order.add(reader.name());
                }
                if (f.get("consumer") == 1) {
                    order.add(LatencyProcess.CONSUMER);
                }
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (String reader : order) {
                    String name = "latency-" + (++topic);
                    IsolatedBenchmark.createTopics(broker.bootstrapServers(), List.of(name), f.get("partitions"));
                    int seconds = round == 0 ? f.get("warmup-seconds") : f.get("seconds");
                    Percentiles p = once(reader, broker.bootstrapServers(), name, f, jvm, seconds, work);
                    if (round == 0) {
                        continue;
                    }
                    results.computeIfAbsent(reader, r -> new ArrayList<>()).add(p);
                    out.printf(
                            Locale.ROOT, "round %d %-11s %s  (%,d records)%n", round, reader, p.describe(), p.count());
                }
            }
        }
        Percentiles.printMedians(results, out);
        List<Percentiles> floor = results.get(LatencyProcess.CONSUMER);
        if (floor != null) {
            out.println("over the plain consumer's in the same round (the floor this machine sets for any reader),"
                    + " median (lowest-highest):");
            for (Reader reader : Reader.values()) {
                List<Percentiles> runs = results.get(reader.name());
                out.printf(
                        Locale.ROOT,
                        "%-11s p99 %s  p99.9 %s%n",
                        reader.name(),
                        RoundRatio.of(
                                runs.stream().map(Percentiles::p99).toList(),
                                floor.stream().map(Percentiles::p99).toList()),
                        RoundRatio.of(
                                runs.stream().map(Percentiles::p999).toList(),
                                floor.stream().map(Percentiles::p999).toList()));
            }
        }
        return results;
    }

    private static Percentiles once(
            String reader,
            String bootstrap,
            String topic,
            Map<String, Integer> f,
            List<String> jvm,
            int seconds,
            Path work)
            throws Exception {
        long expected = (long) f.get("rate") * seconds;
        Path log = work.resolve("latency-reader.log");
        Process job = JvmLauncher.start(
                jvm,
                LatencyProcess.class,
                List.of(reader, bootstrap, topic, String.valueOf(f.get("parallelism")), String.valueOf(expected)),
                log);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (Files.readAllLines(log).stream().noneMatch(LatencyProcess.READY::equals)) {
                if (!job.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            reader + " latency job did not get ready; its output:\n" + Files.readString(log));
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
            // the job's JVM is new: its first seconds measure class loading and the JIT, not the source
            LatencyBenchmark.produce(
                    bootstrap, topic, f.get("rate"), f.get("jit-seconds"), seconds, f.get("record-size"));
            if (!job.waitFor(2, TimeUnit.MINUTES) || job.exitValue() != 0) {
                throw new IllegalStateException(reader + " latency job did not receive all " + expected
                        + " records; its output:\n" + Files.readString(log));
            }
            return Files.readAllLines(log).stream()
                    .filter(line -> line.startsWith(LatencyProcess.PREFIX))
                    .findFirst()
                    .map(LatencyProcess::parse)
                    .orElseThrow();
        } finally {
            job.destroyForcibly();
        }
    }
}
