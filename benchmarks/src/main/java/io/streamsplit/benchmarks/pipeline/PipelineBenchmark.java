package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.RoundRatio;
import io.streamsplit.benchmarks.isolated.AppStartBenchmark;
import io.streamsplit.benchmarks.isolated.BrokerProcess;
import io.streamsplit.benchmarks.isolated.IsolatedBenchmark;
import io.streamsplit.benchmarks.pipeline.PipelineProcess.Figures;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
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
 * group ({@code <label>+b1}, {@code +b2}, …), and {@code --b-jar} one more: the first variant from another
 * build of the benchmarks app ({@code <label>+jar}), for a before/after. Before the rounds the first arm runs once uncounted: the
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
 * # StreamSplit vs Kafka Streams (mvn -B -q -DskipTests install -pl benchmarks-kstreams-app first), with the
 * # idle CPU of the minute after the last output; --idle 150s+60s: of a minute 150 s after it
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.pipeline.PipelineBenchmark \
 *     -Dexec.args="--records 1000000 --partitions 6 --parallelism 2 --checkpoint 1s --idle 60s \
 *     --variants totals,kstreams-totals,transform,kstreams-transform"
 * </pre>
 */
public final class PipelineBenchmark {

    private static final Pattern CHECKPOINT =
            Pattern.compile("Completed checkpoint \\d+ .*checkpointDuration=(\\d+) ms");

    /**
     * One run of an arm (a variant, or with {@code --b-args} the first variant with more app arguments): what
     * its process measured ({@link PipelineProcess.Figures}) and the durations of its checkpoints in ms.
     */
    record PipelineRun(
            String arm, PipelineVariant variant, PipelineProcess.Figures figures, List<Double> checkpointMillis) {}

    /** The harness's settings; {@link #main} reads them from {@code --name value} options. */
    record Settings(
            String bootstrapServers,
            Path jar,
            Path kafkaStreamsJar,
            Path kafkaStreams44Jar,
            boolean kafkaStreamsSameCadence,
            PipelineProcess.Idle idle,
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
            String bJar,
            List<String> jvmOptions) {

        /** The settings in {@link #options}; durations ({@code checkpoint}, {@code idle}) are 10s or 500ms. */
        static Settings of(Map<String, String> f) {
            String cadence = f.get("kstreams-commit");
            if (!cadence.equals("same") && !cadence.equals("default")) {
                throw new IllegalArgumentException(
                        "--kstreams-commit " + cadence + ": say same (commit.interval.ms = --checkpoint) or default");
            }
            return new Settings(
                    f.get("bootstrap-servers"),
                    Path.of(f.get("jar")),
                    Path.of(f.get("kstreams-jar")),
                    Path.of(f.get("kstreams44-jar")),
                    cadence.equals("same"),
                    idle(f.get("idle")),
                    Integer.parseInt(f.get("records")),
                    Integer.parseInt(f.get("rounds")),
                    Integer.parseInt(f.get("warmups")),
                    Arrays.stream(f.get("variants").split(","))
                            .map(PipelineVariant::of)
                            .toList(),
                    Integer.parseInt(f.get("value-size")),
                    Integer.parseInt(f.get("partitions")),
                    Integer.parseInt(f.get("parallelism")),
                    duration(f.get("checkpoint")),
                    Integer.parseInt(f.get("accounts")),
                    f.get("app-args"),
                    f.get("b-args"),
                    f.get("b-jar"),
                    BenchmarkSupport.jvmOptions(f.get("jvm")));
        }

        /** {@code 60s}: the minute after the last output; {@code 150s+60s}: a minute, 150 s after it. */
        private static PipelineProcess.Idle idle(String text) {
            String[] parts = text.split("\\+");
            return parts.length == 1
                    ? new PipelineProcess.Idle(Duration.ZERO, duration(parts[0]))
                    : new PipelineProcess.Idle(duration(parts[0]), duration(parts[1]));
        }

        private static Duration duration(String text) {
            String value = text.trim().toLowerCase(Locale.ROOT);
            return value.endsWith("ms")
                    ? Duration.ofMillis(Long.parseLong(value.replace("ms", "")))
                    : Duration.ofSeconds(Long.parseLong(value.replace("s", "")));
        }

        /** Settings for a short run with the defaults of the harness: the CI smoke tests' starting point. */
        static Settings small(List<PipelineVariant> variants, int records, Duration checkpointInterval) {
            return small(variants, records, checkpointInterval, PipelineProcess.Idle.NONE);
        }

        /** The same, measuring each run's idle CPU over {@code idle} after its last output. */
        static Settings small(
                List<PipelineVariant> variants, int records, Duration checkpointInterval, PipelineProcess.Idle idle) {
            return new Settings(
                    "",
                    AppStartBenchmark.benchmarksAppJar(),
                    PipelineVariant.Jars.kafkaStreamsAppJar(),
                    PipelineVariant.Jars.kafkaStreams44AppJar(),
                    true,
                    idle,
                    records,
                    1,
                    0,
                    variants,
                    50,
                    2,
                    1,
                    checkpointInterval,
                    100,
                    "",
                    "",
                    "",
                    List.of("-Xmx512m"));
        }

        /** These settings with other JVM options. */
        Settings withJvmOptions(List<String> options) {
            return new Settings(
                    bootstrapServers,
                    jar,
                    kafkaStreamsJar,
                    kafkaStreams44Jar,
                    kafkaStreamsSameCadence,
                    idle,
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
                    bJar,
                    List.copyOf(options));
        }

        /**
         * What each round runs: every variant, then the first one with each {@code ;}-group of {@link #bArgs},
         * then the first one from {@link #bJar}, another build of the benchmarks app (a before/after).
         */
        List<Arm> arms() {
            List<Arm> arms = new ArrayList<>();
            variants.forEach(v -> arms.add(new Arm(v.label, v, appArgs, false)));
            PipelineVariant first = variants.get(0);
            List<String> groups = Arrays.stream(bArgs.split(";"))
                    .filter(group -> !group.isBlank())
                    .toList();
            for (int i = 0; i < groups.size(); i++) {
                arms.add(new Arm(first.label + "+b" + (i + 1), first, (appArgs + " " + groups.get(i)).trim(), false));
            }
            if (!bJar.isBlank()) {
                arms.add(new Arm(first.label + "+jar", first, appArgs, true));
            }
            return arms;
        }
    }

    /** A variant as one round runs it, with the app arguments it gets, from {@code --b-jar} or not. */
    record Arm(String label, PipelineVariant variant, String appArgs, boolean otherJar) {}

    private PipelineBenchmark() {}

    public static void main(String[] args) throws Exception {
        try {
            Map<String, String> f = options(Map.of("variants", "plain,headers,traced,traced-10pct"), args);
            run(Settings.of(f), System.out);
        } catch (IllegalArgumentException e) {
            exitOnBadInput("PipelineBenchmark", e);
        }
    }

    /** What a harness does with bad input (an unknown variant, a broker not there): one line, exit status 2. */
    static void exitOnBadInput(String harness, IllegalArgumentException e) {
        System.err.println(harness + ": " + e.getMessage());
        System.exit(2);
    }

    /**
     * The options of a whole-pipeline harness: every harness's defaults, then {@code defaults} (its own
     * options and defaults), then {@code --name value} pairs from {@code args}.
     */
    static Map<String, String> options(Map<String, String> defaults, String... args) throws Exception {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("jar", AppStartBenchmark.benchmarksAppJar().toString());
        f.put("kstreams-jar", PipelineVariant.Jars.kafkaStreamsAppJar().toString());
        f.put("kstreams44-jar", PipelineVariant.Jars.kafkaStreams44AppJar().toString());
        f.put("kstreams-commit", "same");
        f.put("bootstrap-servers", "");
        f.put("idle", "0s");
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
        f.put("b-jar", "");
        f.put("jvm", "-Xmx1g");
        f.putAll(defaults);
        return BenchmarkSupport.options(f, args);
    }

    static List<PipelineRun> run(Settings settings, PrintStream out) throws Exception {
        Path work = Files.createTempDirectory("pipeline-bench");
        // on a broker of the user's, topics and groups of this run's own
        String prefix = settings.bootstrapServers().isBlank() ? "" : work.getFileName() + ".";
        List<PipelineRun> runs = new ArrayList<>();
        try (BrokerProcess broker = BrokerProcess.startOrUse(work, settings.bootstrapServers());
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            PipelineVariant.Jars jars = PipelineVariant.Jars.prepare(settings, settings.variants(), work);
            PipelineVariant.Jars otherJars = settings.bJar().isBlank()
                    ? jars
                    : jars.withStreamSplit(AppStartBenchmark.extract(
                            Path.of(settings.bJar()), Files.createDirectories(work.resolve("b-jar"))));
            String bootstrap = broker.bootstrapServers();
            for (PipelineVariant.Input input :
                    settings.variants().stream().map(v -> v.input).distinct().toList()) {
                IsolatedBenchmark.createTopics(bootstrap, List.of(prefix + input.topic()), settings.partitions());
                String topic = prefix + input.topic();
                BenchmarkSupport.writeRecords(
                        bootstrap,
                        topic,
                        input.written(settings.records(), settings.partitions()),
                        (partitions, i) -> input.record(
                                topic, i, settings.records(), partitions, settings.valueSize(), settings.accounts()));
            }
            // a fresh broker creates and loads its offsets topic on the first group that commits; an app whose
            // first commit meets it logs Kafka's "coordinator is loading" WARN: have it loaded before any app runs
            String firstInput = prefix + settings.variants().get(0).input.topic();
            admin.alterConsumerGroupOffsets(
                            prefix + "pipeline-bench-warm-up",
                            Map.of(new TopicPartition(firstInput, 0), new OffsetAndMetadata(0)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
            Runner runner = new Runner(settings, jars, otherJars, bootstrap, admin, work, prefix);
            for (int i = 0; i < settings.warmups(); i++) {
                PipelineRun warmup = runner.run(settings.arms().get(0));
                out.printf(
                        Locale.ROOT,
                        "warm-up %s %,10.0f records/s (not counted)%n",
                        warmup.arm(),
                        warmup.figures().recordsPerSecond());
            }
            for (int round = 1; round <= settings.rounds(); round++) {
                for (Arm arm : inRoundOrder(settings.arms(), round)) {
                    PipelineRun run = runner.run(arm);
                    runs.add(run);
                    PipelineProcess.Figures figures = run.figures();
                    out.printf(
                            Locale.ROOT,
                            "round %d %-18s %,10.0f records/s (written %,10.0f)  CPU %5.2f s per M records"
                                    + "  peak RSS %,5.0f MB  first output %5.1f s  from start %,10.0f records/s"
                                    + " %5.2f CPU s per M  %d checkpoints, p50 %.0f ms%s%n",
                            round,
                            arm.label(),
                            figures.recordsPerSecond(),
                            figures.writtenPerSecond(),
                            figures.cpuPerMillion(),
                            figures.peakRssMb(),
                            figures.firstOutputSeconds(),
                            figures.wholeRecordsPerSecond(),
                            figures.wholeCpuPerMillion(),
                            run.checkpointMillis().size(),
                            percentile(run.checkpointMillis(), 0.5),
                            idle(figures));
                }
            }
        }
        printSummary(settings, runs, out);
        return runs;
    }

    /** A run's idle figures, blank where they were not measured. */
    private static String idle(PipelineProcess.Figures run) {
        if (Double.isNaN(run.idleCores())) {
            return "";
        }
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%n    idle %.3f cores:", run.idleCores()));
        run.idleCoresByThread().entrySet().stream()
                .limit(12)
                .forEach(e -> text.append(String.format(Locale.ROOT, " %s %.3f,", e.getKey(), e.getValue())));
        return text.substring(0, text.length() - 1);
    }

    /** Runs arms one after the other, each with its own output topic and consumer group. */
    private static final class Runner {
        private final Settings settings;
        private final PipelineVariant.Jars jars;
        private final PipelineVariant.Jars otherJars;
        private final String bootstrap;
        private final Admin admin;
        private final Path work;
        private final String prefix;
        private int n;

        Runner(
                Settings settings,
                PipelineVariant.Jars jars,
                PipelineVariant.Jars otherJars,
                String bootstrap,
                Admin admin,
                Path work,
                String prefix) {
            this.otherJars = otherJars;
            this.prefix = prefix;
            this.settings = settings;
            this.jars = jars;
            this.bootstrap = bootstrap;
            this.admin = admin;
            this.work = work;
        }

        PipelineRun run(Arm arm) throws Exception {
            PipelineVariant variant = arm.variant();
            String output = prefix + "pipe.out-" + n;
            IsolatedBenchmark.createTopics(bootstrap, variant.outputTopics(output), settings.partitions());
            PipelineProcess.Figures figures = PipelineProcess.measure(
                    arm.label(),
                    variant.command(
                            settings,
                            arm.appArgs(),
                            arm.otherJar() ? otherJars : jars,
                            bootstrap,
                            prefix + variant.input.topic(),
                            prefix + "pipe-" + n,
                            output),
                    work.resolve("run-" + n + "-" + arm.label() + ".log"),
                    bootstrap,
                    admin,
                    output,
                    settings.partitions(),
                    variant.expectedOutput(settings.records(), settings.accounts()),
                    variant.exactlyOnce(),
                    settings.idle());
            n++;
            if (variant.windowed()) {
                long good = settings.records() - variant.input.badOf(settings.records());
                figures = figures.perInputRecord((double) good / figures.outputRecords());
            }
            RunChecks.whatWasMeasured(variant, figures, settings.records(), settings.accounts(), bootstrap, output);
            return new PipelineRun(arm.label(), variant, figures, checkpointMillis(figures.log()));
        }
    }

    private static void printSummary(Settings settings, List<PipelineRun> runs, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "%n%,d records, %d partitions, parallelism %d, %d ms checkpoints (Kafka Streams: commit.interval.ms %s),"
                        + " %d round(s); medians, checkpoint durations over all runs, then ratios per round (median,"
                        + " lowest–highest)%n",
                settings.records(),
                settings.partitions(),
                settings.parallelism(),
                settings.checkpointInterval().toMillis(),
                settings.kafkaStreamsSameCadence() ? "the same" : "its default",
                settings.rounds());
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
                    "%-18s %,10.0f records/s (written %,10.0f)  CPU %5.2f s per M  peak RSS %,5.0f MB  first output"
                            + " %5.1f s  from start %,10.0f records/s %5.2f CPU s per M  idle %.3f cores  checkpoint"
                            + " p50 %.0f p99 %.0f ms%n",
                    label,
                    median(of, Figures::recordsPerSecond),
                    median(of, Figures::writtenPerSecond),
                    median(of, Figures::cpuPerMillion),
                    median(of, Figures::peakRssMb),
                    median(of, Figures::firstOutputSeconds),
                    median(of, Figures::wholeRecordsPerSecond),
                    median(of, Figures::wholeCpuPerMillion),
                    median(of, Figures::idleCores),
                    percentile(checkpoints, 0.5),
                    percentile(checkpoints, 0.99));
        }
        for (Pair pair : pairs(settings)) {
            out.printf(
                    Locale.ROOT,
                    "%s vs %s: records/s %s  written %s  CPU per record %s  peak RSS %s  first output %s"
                            + "  from start: records/s %s  CPU per record %s  idle CPU %s%n",
                    pair.a(),
                    pair.b(),
                    ratio(runs, pair.a(), pair.b(), Figures::recordsPerSecond),
                    ratio(runs, pair.a(), pair.b(), Figures::writtenPerSecond),
                    ratio(runs, pair.a(), pair.b(), Figures::cpuPerMillion),
                    ratio(runs, pair.a(), pair.b(), Figures::peakRssMb),
                    ratio(runs, pair.a(), pair.b(), Figures::firstOutputSeconds),
                    ratio(runs, pair.a(), pair.b(), Figures::wholeRecordsPerSecond),
                    ratio(runs, pair.a(), pair.b(), Figures::wholeCpuPerMillion),
                    ratio(runs, pair.a(), pair.b(), Figures::idleCores));
        }
    }

    /**
     * {@code arms} in the order round {@code round} runs them: as given in odd rounds, reversed in even ones, so
     * no arm always runs first (on a warmer or a colder machine) and ratios paired per round cancel that out.
     */
    static <T> List<T> inRoundOrder(List<T> arms, int round) {
        List<T> order = new ArrayList<>(arms);
        if (round % 2 == 0) {
            Collections.reverse(order);
        }
        return order;
    }

    /** Two arms whose figures are compared round by round: {@code a} over {@code b}. */
    record Pair(String a, String b) {}

    /**
     * What the summary compares: each StreamSplit variant with its Kafka Streams counterparts ({@code x} with
     * {@code kstreams-x} and {@code kstreams44-x}) where they ran, and every other arm with the first variant.
     */
    static List<Pair> pairs(Settings settings) {
        List<String> labels = settings.arms().stream().map(Arm::label).toList();
        List<Pair> pairs = new ArrayList<>();
        String base = labels.get(0);
        for (String label : labels) {
            boolean counterpart = false;
            for (String line : List.of("kstreams-", "kstreams44-")) {
                if (labels.contains(line + label)) {
                    pairs.add(new Pair(label, line + label));
                    counterpart = true;
                }
            }
            if (!counterpart && !label.equals(base) && !label.startsWith("kstreams")) {
                pairs.add(new Pair(label, base));
            }
        }
        return pairs;
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

    private static RoundRatio ratio(List<PipelineRun> runs, String a, String b, ToDoubleFunction<Figures> f) {
        return RoundRatio.of(values(runs, a, f), values(runs, b, f));
    }

    private static List<Double> values(List<PipelineRun> runs, String arm, ToDoubleFunction<Figures> f) {
        return runs.stream()
                .filter(r -> r.arm().equals(arm))
                .map(r -> f.applyAsDouble(r.figures()))
                .toList();
    }

    private static double median(List<PipelineRun> runs, ToDoubleFunction<Figures> f) {
        return BenchmarkSupport.median(runs.stream()
                .mapToDouble(r -> f.applyAsDouble(r.figures()))
                .boxed()
                .toList());
    }
}
