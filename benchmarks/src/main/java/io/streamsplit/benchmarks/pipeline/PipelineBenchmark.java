package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.RoundRatio;
import io.streamsplit.benchmarks.isolated.AppStartBenchmark;
import io.streamsplit.benchmarks.isolated.BrokerProcess;
import io.streamsplit.benchmarks.isolated.IsolatedBenchmark;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Whole pipelines side by side, as a user runs them: each {@link PipelineVariant} in a fresh JVM of its
 * own (a local MiniCluster), the broker in another, the input already written; variants interleaved
 * round by round, in reverse order on even rounds.
 *
 * <p>Per run: records/s from the first to the last output record a {@code read_committed} reader can see
 * (every variant writes one output record per input record), the JVM's CPU seconds per million records in
 * that span, its peak RSS, and the duration of every checkpoint completed (Flink's {@code
 * CheckpointCoordinator} line). Ratios are each variant over the first one listed, per round; {@code
 * --b-args} adds arms per round: the first variant with more app arguments, one arm per {@code ;}-separated
 * group ({@code <label>+b1}, {@code +b2}, …). Before the rounds the first arm runs once uncounted: the
 * first run after writing the input was seen at half speed (the broker still writing it back). Each run also
 * checks it measured what it says: an exactly-once variant's output count is the input's (more is a
 * duplicate); the tracing start-up line is in the app's log exactly for the traced variants, and an output
 * record's {@code traceparent} is the input's, a new span of the input's trace (sampled input, traced), or
 * absent.
 *
 * <pre>
 * mvn -B -q -DskipTests install -pl benchmarks -am
 * # what tracing costs
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.pipeline.PipelineBenchmark \
 *     -Dexec.args="--records 2000000 --rounds 5 --variants plain,headers,traced,traced-10pct"
 * # an A/B: the first variant again with more app arguments, e.g. without the sinks' freshness timer
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.pipeline.PipelineBenchmark \
 *     -Dexec.args="--variants plain --b-args --management.metrics.enable.streamsplit.kafka.sink.freshness=false"
 * # the starter's pipeline from YAML vs the same job wired by hand, 1 s checkpoints (and --checkpoint 10s)
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.pipeline.PipelineBenchmark \
 *     -Dexec.args="--records 2000000 --rounds 5 --variants hand-wired,starter --checkpoint 1s"
 * </pre>
 */
public final class PipelineBenchmark {

    private static final Pattern CHECKPOINT =
            Pattern.compile("Completed checkpoint \\d+ .*checkpointDuration=(\\d+) ms");

    /**
     * One run of an arm (a variant, or with {@code --b-args} the first variant with more app arguments):
     * records/s first → last output, CPU seconds per million records, peak RSS in MB, checkpoints in ms.
     */
    record PipelineRun(
            String arm,
            PipelineVariant variant,
            double recordsPerSecond,
            double cpuPerMillion,
            double writtenPerSecond,
            double peakRssMb,
            List<Double> checkpointMillis,
            Path log) {}

    /** The harness's settings; {@link #main} reads them from {@code --name value} options. */
    record Settings(
            Path jar,
            int records,
            int rounds,
            int warmups,
            List<PipelineVariant> variants,
            int valueSize,
            int partitions,
            int parallelism,
            Duration checkpointInterval,
            int accounts,
            String appArgs,
            String bArgs,
            List<String> jvmOptions) {

        /** The settings in {@link #options}; {@code checkpoint} is 10s or 500ms. */
        static Settings of(Map<String, String> f) {
            String checkpoint = f.get("checkpoint").trim().toLowerCase(Locale.ROOT);
            return new Settings(
                    Path.of(f.get("jar")),
                    Integer.parseInt(f.get("records")),
                    Integer.parseInt(f.get("rounds")),
                    Integer.parseInt(f.get("warmups")),
                    Arrays.stream(f.get("variants").split(","))
                            .map(PipelineVariant::of)
                            .toList(),
                    Integer.parseInt(f.get("value-size")),
                    Integer.parseInt(f.get("partitions")),
                    Integer.parseInt(f.get("parallelism")),
                    checkpoint.endsWith("ms")
                            ? Duration.ofMillis(Long.parseLong(checkpoint.replace("ms", "")))
                            : Duration.ofSeconds(Long.parseLong(checkpoint.replace("s", ""))),
                    Integer.parseInt(f.get("accounts")),
                    f.get("app-args"),
                    f.get("b-args"),
                    BenchmarkSupport.jvmOptions(f.get("jvm")));
        }

        /** These settings with other JVM options. */
        Settings withJvmOptions(List<String> options) {
            return new Settings(
                    jar,
                    records,
                    rounds,
                    warmups,
                    variants,
                    valueSize,
                    partitions,
                    parallelism,
                    checkpointInterval,
                    accounts,
                    appArgs,
                    bArgs,
                    List.copyOf(options));
        }

        /** What each round runs: every variant, then the first one with each {@code ;}-group of {@link #bArgs}. */
        List<Arm> arms() {
            List<Arm> arms = new ArrayList<>();
            variants.forEach(v -> arms.add(new Arm(v.label, v, appArgs)));
            PipelineVariant first = variants.get(0);
            List<String> groups = Arrays.stream(bArgs.split(";"))
                    .filter(group -> !group.isBlank())
                    .toList();
            for (int i = 0; i < groups.size(); i++) {
                arms.add(new Arm(first.label + "+b" + (i + 1), first, (appArgs + " " + groups.get(i)).trim()));
            }
            return arms;
        }
    }

    /** A variant as one round runs it, with the app arguments it gets. */
    record Arm(String label, PipelineVariant variant, String appArgs) {}

    private PipelineBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> f = options(Map.of("variants", "plain,headers,traced,traced-10pct"), args);
        run(Settings.of(f), System.out);
    }

    /**
     * The options of a whole-pipeline harness: every harness's defaults, then {@code defaults} (its own
     * options and defaults), then {@code --name value} pairs from {@code args}.
     */
    static Map<String, String> options(Map<String, String> defaults, String... args) throws Exception {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("jar", AppStartBenchmark.benchmarksAppJar().toString());
        f.put("records", "2000000");
        f.put("rounds", "3");
        f.put("warmups", "1");
        f.put("variants", "hand-wired,starter");
        f.put("value-size", "100");
        f.put("partitions", "4");
        f.put("parallelism", "1");
        f.put("checkpoint", "10s");
        f.put("accounts", "10000");
        f.put("app-args", "");
        f.put("b-args", "");
        f.put("jvm", "-Xmx1g");
        f.putAll(defaults);
        return BenchmarkSupport.options(f, args);
    }

    static List<PipelineRun> run(Settings settings, PrintStream out) throws Exception {
        if (!Files.isRegularFile(settings.jar())) {
            throw new IllegalArgumentException(
                    "No application jar at " + settings.jar().toAbsolutePath()
                            + "; build it with mvn -B -q -DskipTests install -pl benchmarks-app -am, or give --jar");
        }
        Path work = Files.createTempDirectory("pipeline-bench");
        Path jar = AppStartBenchmark.extract(settings.jar(), work);
        Path logback = Files.writeString(work.resolve("logback-hand-wired.xml"), PipelineVariant.handWiredLogback());
        List<PipelineRun> runs = new ArrayList<>();
        try (BrokerProcess broker = BrokerProcess.start(work);
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            String bootstrap = broker.bootstrapServers();
            for (PipelineVariant.Input input :
                    settings.variants().stream().map(v -> v.input).distinct().toList()) {
                IsolatedBenchmark.createTopics(bootstrap, List.of(input.topic()), settings.partitions());
                BenchmarkSupport.writeRecords(
                        bootstrap,
                        input.topic(),
                        settings.records(),
                        i -> input.value(i, settings.valueSize(), settings.accounts()),
                        input::headers);
            }
            // a fresh broker creates and loads its offsets topic on the first group that commits; an app whose
            // first commit meets it logs Kafka's "coordinator is loading" WARN: have it loaded before any app runs
            String firstInput = settings.variants().get(0).input.topic();
            admin.alterConsumerGroupOffsets(
                            "pipeline-bench-warm-up",
                            Map.of(new TopicPartition(firstInput, 0), new OffsetAndMetadata(0)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
            Runner runner = new Runner(settings, jar, logback, bootstrap, admin, work);
            for (int i = 0; i < settings.warmups(); i++) {
                PipelineRun warmup = runner.run(settings.arms().get(0));
                out.printf(
                        Locale.ROOT,
                        "warm-up %s %,10.0f records/s (not counted)%n",
                        warmup.arm(),
                        warmup.recordsPerSecond());
            }
            for (int round = 1; round <= settings.rounds(); round++) {
                List<Arm> order = settings.arms();
                if (round % 2 == 0) {
                    java.util.Collections.reverse(order);
                }
                for (Arm arm : order) {
                    PipelineRun run = runner.run(arm);
                    runs.add(run);
                    out.printf(
                            Locale.ROOT,
                            "round %d %-13s %,10.0f records/s (written %,10.0f)  CPU %5.2f s per M records"
                                    + "  peak RSS %,5.0f MB  %d checkpoints, p50 %.0f ms%n",
                            round,
                            arm.label(),
                            run.recordsPerSecond(),
                            run.writtenPerSecond(),
                            run.cpuPerMillion(),
                            run.peakRssMb(),
                            run.checkpointMillis().size(),
                            percentile(run.checkpointMillis(), 0.5));
                }
            }
        }
        printSummary(settings, runs, out);
        return runs;
    }

    /** Runs arms one after the other, each with its own output topic and consumer group. */
    private static final class Runner {
        private final Settings settings;
        private final Path jar;
        private final Path logback;
        private final String bootstrap;
        private final Admin admin;
        private final Path work;
        private int n;

        Runner(Settings settings, Path jar, Path logback, String bootstrap, Admin admin, Path work) {
            this.settings = settings;
            this.jar = jar;
            this.logback = logback;
            this.bootstrap = bootstrap;
            this.admin = admin;
            this.work = work;
        }

        PipelineRun run(Arm arm) throws Exception {
            PipelineVariant variant = arm.variant();
            String output = "pipe.out-" + n;
            IsolatedBenchmark.createTopics(bootstrap, List.of(output), settings.partitions());
            PipelineProcess.Figures figures = PipelineProcess.measure(
                    arm.label(),
                    variant.command(
                            settings,
                            arm.appArgs(),
                            jar,
                            logback,
                            bootstrap,
                            variant.input.topic(),
                            "pipe-" + n,
                            output),
                    work.resolve("run-" + n + "-" + arm.label() + ".log"),
                    bootstrap,
                    admin,
                    output,
                    settings.partitions(),
                    settings.records(),
                    variant.exactlyOnce());
            n++;
            RunChecks.whatWasMeasured(variant, figures, settings.records(), bootstrap, output);
            return new PipelineRun(
                    arm.label(),
                    variant,
                    figures.recordsPerSecond(),
                    figures.cpuPerMillion(),
                    figures.writtenPerSecond(),
                    figures.peakRssMb(),
                    checkpointMillis(figures.log()),
                    figures.log());
        }
    }

    private static void printSummary(Settings settings, List<PipelineRun> runs, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "%n%,d records, %d partitions, parallelism %d, %d s checkpoints, %d round(s); medians, checkpoint"
                        + " durations over all runs, and each variant over %s per round (median, lowest–highest)%n",
                settings.records(),
                settings.partitions(),
                settings.parallelism(),
                settings.checkpointInterval().toSeconds(),
                settings.rounds(),
                settings.variants().get(0).label);
        String base = settings.variants().get(0).label;
        if (!settings.bArgs().isBlank()) {
            out.printf(Locale.ROOT, "+b1, +b2, …: %s%n", settings.bArgs());
        }
        for (Arm arm : settings.arms()) {
            String label = arm.label();
            List<PipelineRun> of =
                    runs.stream().filter(r -> r.arm().equals(label)).toList();
            List<Double> checkpoints =
                    of.stream().flatMap(r -> r.checkpointMillis().stream()).toList();
            out.printf(
                    Locale.ROOT,
                    "%-13s %,10.0f records/s (written %,10.0f)  CPU %5.2f s per M  peak RSS %,5.0f MB  checkpoint"
                            + " p50 %.0f p99 %.0f ms  | vs %s: records/s %s  written %s  CPU per record %s  peak RSS %s%n",
                    label,
                    median(of, PipelineRun::recordsPerSecond),
                    median(of, PipelineRun::writtenPerSecond),
                    median(of, PipelineRun::cpuPerMillion),
                    median(of, PipelineRun::peakRssMb),
                    percentile(checkpoints, 0.5),
                    percentile(checkpoints, 0.99),
                    base,
                    ratio(runs, label, base, PipelineRun::recordsPerSecond),
                    ratio(runs, label, base, PipelineRun::writtenPerSecond),
                    ratio(runs, label, base, PipelineRun::cpuPerMillion),
                    ratio(runs, label, base, PipelineRun::peakRssMb));
        }
    }

    /** The durations of the checkpoints a run's log says were completed. */
    static List<Double> checkpointMillis(Path log) throws IOException {
        List<Double> millis = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            Matcher m = CHECKPOINT.matcher(line);
            if (m.find()) {
                millis.add(Double.parseDouble(m.group(1)));
            }
        }
        return millis;
    }

    /** The nearest-rank percentile, NaN for no values. */
    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(Math.max(0, (int) Math.ceil(p * sorted.size()) - 1));
    }

    private static RoundRatio ratio(List<PipelineRun> runs, String a, String b, ToDoubleFunction<PipelineRun> f) {
        return RoundRatio.of(values(runs, a, f), values(runs, b, f));
    }

    private static List<Double> values(List<PipelineRun> runs, String arm, ToDoubleFunction<PipelineRun> f) {
        return runs.stream()
                .filter(r -> r.arm().equals(arm))
                .map(r -> f.applyAsDouble(r))
                .toList();
    }

    private static double median(List<PipelineRun> runs, ToDoubleFunction<PipelineRun> f) {
        return BenchmarkSupport.median(runs.stream().mapToDouble(f).boxed().toList());
    }
}
