package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.RoundRatio;
import io.streamsplit.benchmarks.isolated.BrokerProcess;
import io.streamsplit.benchmarks.isolated.IsolatedBenchmark;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import io.streamsplit.flink.cluster.StandaloneFlinkClusterBuilder;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Recovery side by side on a multi-process Flink cluster: the starter's running totals (remote mode, from
 * YAML) and the same job wired by hand with the official connector ({@code HandWiredTotalsJob} submitted
 * with its jars), each fed payments at a fixed rate into an exactly-once sink with 1 s checkpoints. Per run
 * the TaskManager that holds the job is killed with SIGKILL while a second one stands by with free slots,
 * and the harness measures kill → the first committed output answering a payment sent after the kill,
 * split by the cluster's own timestamps ({@link RecoveryTimeline}): detection, restart wait, slots,
 * deployment, initialisation (state restore and the sink's transaction recovery) and first output (first
 * fetch, the backlog since the checkpoint, the next checkpoint's commit). Every payment must come out
 * exactly once. Variants alternate order round by round; each round's ratio is starter / hand-wired.
 *
 * <pre>
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.pipeline.RecoveryBenchmark \
 *     -Dexec.args="--rounds 3"
 * </pre>
 *
 * {@code --cluster-config key=value,…} adds to the cluster's configuration (e.g.
 * {@code heartbeat.interval=1000,heartbeat.timeout=5000}; Flink's defaults are 10 s and 50 s);
 * {@code --starter-args} and {@code --hand-wired-config} change one side's settings (e.g.
 * {@code "--streamsplit.flink.restart.delay=500ms"} and {@code restart-strategy.type=fixed-delay,…}).
 */
public final class RecoveryBenchmark {

    private RecoveryBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> f = PipelineBenchmark.options(
                Map.of(
                        "rate", "2000",
                        "parallelism", "2",
                        "checkpoint", "1s",
                        "jvm", "-Xmx512m",
                        "cluster-config", "",
                        "starter-args", "",
                        "hand-wired-config", ""),
                args);
        run(
                PipelineBenchmark.Settings.of(f),
                Integer.parseInt(f.get("rate")),
                keyValues(f.get("cluster-config")),
                Map.of(
                        PipelineVariant.STARTER, f.get("starter-args"),
                        PipelineVariant.HAND_WIRED, f.get("hand-wired-config")),
                System.out);
    }

    /** Runs every round; {@code extraArgs} are a variant's own settings (app arguments, or the job's Flink config). */
    static List<RecoveryTimeline> run(
            PipelineBenchmark.Settings settings,
            int rate,
            Map<String, String> clusterConfig,
            Map<PipelineVariant, String> extraArgs,
            PrintStream out)
            throws Exception {
        Path work = Files.createTempDirectory("recovery-bench");
        PipelineVariant.Jars jars = PipelineVariant.Jars.prepare(settings, settings.variants(), work);
        List<RecoveryTimeline> timelines = new ArrayList<>();
        StandaloneFlinkClusterBuilder builder = StandaloneFlinkCluster.builder()
                .taskManagers(1)
                .taskSlots(settings.parallelism())
                .workDir(Files.createDirectory(work.resolve("flink")));
        clusterConfig.forEach(builder::config);
        try (BrokerProcess broker = BrokerProcess.start(work);
                StandaloneFlinkCluster cluster = builder.start()) {
            String bootstrap = broker.bootstrapServers();
            int n = 0;
            for (int round = 1; round <= settings.rounds(); round++) {
                for (PipelineVariant variant : PipelineBenchmark.inRoundOrder(settings.variants(), round)) {
                    String name = "recovery-" + n++;
                    IsolatedBenchmark.createTopics(
                            bootstrap, List.of(name + ".in", name + ".out"), settings.partitions());
                    RecoveryTimeline timeline = new RecoveryRun(
                                    variant,
                                    settings,
                                    cluster,
                                    bootstrap,
                                    jars,
                                    work,
                                    name,
                                    rate,
                                    extraArgs.getOrDefault(variant, ""))
                            .measure();
                    timelines.add(timeline);
                    out.printf(Locale.ROOT, "round %d %-10s %s%n", round, variant.label, timeline.line());
                }
            }
        }
        out.printf(
                Locale.ROOT,
                "%n%,d payments/s, %d partitions, p=%d, %d ms checkpoints, cluster %s, %d round(s)%s;"
                        + " medians (ms), and each variant's total over %s's per round%n%s%n",
                rate,
                settings.partitions(),
                settings.parallelism(),
                settings.checkpointInterval().toMillis(),
                clusterConfig.isEmpty() ? "with Flink's defaults" : clusterConfig,
                settings.rounds(),
                extraArgs.values().stream().allMatch(String::isBlank) ? "" : ", " + extraArgs,
                settings.variants().get(0).label,
                RecoveryTimeline.HEADER);
        for (PipelineVariant variant : settings.variants()) {
            out.println(RecoveryTimeline.medianRow(
                    variant.label,
                    timelines.stream()
                            .filter(t -> t.variant().equals(variant.label))
                            .toList(),
                    RoundRatio.of(
                            totals(timelines, variant),
                            totals(timelines, settings.variants().get(0)))));
        }
        return timelines;
    }

    /** {@code a=1,b=2} → {a=1, b=2}, in order. */
    static Map<String, String> keyValues(String list) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : list.split(",")) {
            if (!pair.isBlank()) {
                String[] kv = pair.split("=", 2);
                map.put(kv[0].trim(), kv[1].trim());
            }
        }
        return map;
    }

    private static List<Double> totals(List<RecoveryTimeline> timelines, PipelineVariant variant) {
        ToDoubleFunction<RecoveryTimeline> total = RecoveryTimeline::total;
        return timelines.stream()
                .filter(t -> t.variant().equals(variant.label))
                .mapToDouble(total)
                .boxed()
                .toList();
    }

    /** Polls {@code condition} every 20 ms until it holds; fails with {@code what} after {@code timeout}. */
    static void await(Duration timeout, String what, Check condition) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /** A condition polled by {@link #await}. */
    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }
}
