package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.RoundRatio;
import io.streamsplit.benchmarks.isolated.BrokerProcess;
import io.streamsplit.benchmarks.isolated.IsolatedBenchmark;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Recovery after {@code kill -9} of the whole application, side by side: a StreamSplit app (embedded
 * MiniCluster) and the same job as a spring-kafka Kafka Streams app, each started with {@code java}, fed
 * payments at a fixed rate, killed with SIGKILL at a random point of its commit cadence once it has
 * committed a few times, and started again at once with the same arguments (the same checkpoint storage,
 * or application id and state directory), as a process supervisor would. Per run: kill → the first
 * {@code read_committed} output answering a payment sent after the kill, and every payment answered — for
 * exactly-once variants once and only once (the run fails otherwise), for at-least-once ones at least once
 * with the repeats counted. Both sides run with their defaults but the commit cadence (Kafka Streams'
 * {@code commit.interval.ms} = our checkpoint interval, as in {@link PipelineBenchmark}).
 *
 * <pre>
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.pipeline.KillRecoveryBenchmark \
 *     -Dexec.args="--variants totals,kstreams-totals --rounds 3 --rate 2000"
 * </pre>
 */
public final class KillRecoveryBenchmark {

    /** One run: kill → first new output, and the payments sent, answered and answered more than once. */
    record KillRun(String variant, double recoverySeconds, long sent, long answered, long duplicates) {}

    private KillRecoveryBenchmark() {}

    public static void main(String[] args) throws Exception {
        try {
            Map<String, String> f = PipelineBenchmark.options(
                    Map.of(
                            "variants", "totals,kstreams-totals",
                            "rate", "2000",
                            "partitions", "6",
                            "parallelism", "2",
                            "checkpoint", "1s",
                            "jvm", "-Xmx512m"),
                    args);
            run(PipelineBenchmark.Settings.of(f), Integer.parseInt(f.get("rate")), System.out);
        } catch (IllegalArgumentException e) {
            PipelineBenchmark.exitOnBadInput("KillRecoveryBenchmark", e);
        }
    }

    /** Runs every round, variants alternating order; prints each run and the medians with ratios per round. */
    static List<KillRun> run(PipelineBenchmark.Settings settings, int rate, PrintStream out) throws Exception {
        Path work = Files.createTempDirectory("kill-bench");
        String prefix = settings.bootstrapServers().isBlank() ? "" : work.getFileName() + ".";
        PipelineVariant.Jars jars = PipelineVariant.Jars.prepare(settings, settings.variants(), work);
        List<KillRun> runs = new ArrayList<>();
        try (BrokerProcess broker = BrokerProcess.startOrUse(work, settings.bootstrapServers())) {
            String bootstrap = broker.bootstrapServers();
            int n = 0;
            for (int round = 1; round <= settings.rounds(); round++) {
                for (PipelineVariant variant : PipelineBenchmark.inRoundOrder(settings.variants(), round)) {
                    String name = prefix + "kill-" + n++;
                    List<String> topics = new ArrayList<>(List.of(name + ".in"));
                    topics.addAll(variant.outputTopics(name + ".out"));
                    IsolatedBenchmark.createTopics(bootstrap, topics, settings.partitions());
                    KillRun run = measure(variant, settings, jars, bootstrap, name, rate, work);
                    runs.add(run);
                    out.printf(
                            Locale.ROOT,
                            "round %d %-18s first new output %5.1f s after kill -9; %,d payments sent, %,d answered,"
                                    + " %,d answered twice%n",
                            round,
                            variant.label,
                            run.recoverySeconds(),
                            run.sent(),
                            run.answered(),
                            run.duplicates());
                }
            }
        }
        out.printf(
                Locale.ROOT,
                "%n%,d payments/s, %d partitions, parallelism %d, %d ms checkpoints (Kafka Streams: commit.interval.ms"
                        + " the same), %d round(s): median seconds from kill -9 to the first new output, and the ratio"
                        + " per round (median, lowest–highest)%n",
                rate,
                settings.partitions(),
                settings.parallelism(),
                settings.checkpointInterval().toMillis(),
                settings.rounds());
        for (PipelineVariant variant : settings.variants()) {
            out.printf(
                    Locale.ROOT,
                    "%-18s %5.1f s%n",
                    variant.label,
                    BenchmarkSupport.median(seconds(runs, variant.label)));
        }
        for (PipelineBenchmark.Pair pair : PipelineBenchmark.pairs(settings)) {
            RoundRatio ratio = RoundRatio.of(seconds(runs, pair.a()), seconds(runs, pair.b()));
            out.printf(
                    Locale.ROOT,
                    "%s vs %s: recovery %.2f× (%.2f–%.2f)%n",
                    pair.a(),
                    pair.b(),
                    ratio.median(),
                    ratio.low(),
                    ratio.high());
        }
        return runs;
    }

    private static List<Double> seconds(List<KillRun> runs, String variant) {
        return runs.stream()
                .filter(r -> r.variant().equals(variant))
                .map(KillRun::recoverySeconds)
                .toList();
    }

    /** One variant's run: start, traffic, kill -9, start again, every payment answered. */
    private static KillRun measure(
            PipelineVariant variant,
            PipelineBenchmark.Settings settings,
            PipelineVariant.Jars jars,
            String bootstrap,
            String name,
            int rate,
            Path work)
            throws Exception {
        List<String> command = variant.command(
                settings, settings.appArgs(), jars, bootstrap, name + ".in", name.replace('.', '-'), name + ".out");
        Path firstLog = work.resolve(name + "-" + variant.label + ".log");
        Path secondLog = work.resolve(name + "-" + variant.label + "-after-kill.log");
        Process app = start(command, firstLog);
        Path log = firstLog;
        try (PaymentTraffic traffic =
                new PaymentTraffic(bootstrap, name + ".in", name + ".out", rate, settings.accounts()).start()) {
            RecoveryBenchmark.await(Duration.ofSeconds(120), variant.label + "'s first output", () -> {
                requireAlive(app);
                return traffic.answered() > 0;
            });
            // a few commits (checkpoints) behind it, then a kill anywhere in the cadence
            long interval = settings.checkpointInterval().toMillis();
            TimeUnit.MILLISECONDS.sleep(
                    3 * interval + ThreadLocalRandom.current().nextLong(interval + 1));
            long killedAt = System.currentTimeMillis();
            traffic.watchFrom(killedAt);
            app.destroyForcibly().waitFor();
            Process again = start(command, secondLog);
            log = secondLog;
            try {
                RecoveryBenchmark.await(Duration.ofSeconds(180), "an answer to a payment sent after the kill", () -> {
                    requireAlive(again);
                    return traffic.firstAnswerAfter() > 0;
                });
                double recovery = (traffic.firstAnswerAfter() - killedAt) / 1000.0;
                TimeUnit.SECONDS.sleep(2);
                long sent = traffic.stopSending();
                RecoveryBenchmark.await(
                        Duration.ofSeconds(120), "every payment answered", () -> traffic.answered() >= sent);
                traffic.rethrow();
                long answered = traffic.answered();
                long duplicates = traffic.duplicates();
                if (answered != sent || (variant.exactlyOnce() && duplicates > 0)) {
                    throw new IllegalStateException(variant.label + ": " + sent + " payments sent, " + answered
                            + " answered, " + duplicates + " answered twice");
                }
                return new KillRun(variant.label, recovery, sent, answered, duplicates);
            } finally {
                again.destroy();
                if (!again.waitFor(30, TimeUnit.SECONDS)) {
                    again.destroyForcibly().waitFor();
                }
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    variant.label + " failed (" + e.getMessage() + "); its log:\n" + PipelineProcess.tail(log), e);
        } finally {
            if (app.isAlive()) {
                app.destroyForcibly().waitFor();
            }
        }
    }

    private static Process start(List<String> command, Path log) throws java.io.IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static void requireAlive(Process app) {
        if (!app.isAlive()) {
            throw new IllegalStateException("the application's JVM exited (status " + app.exitValue() + ")");
        }
    }
}
