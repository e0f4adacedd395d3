package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.isolated.BrokerProcess;
import io.streamsplit.benchmarks.isolated.IsolatedBenchmark;
import io.streamsplit.benchmarks.isolated.ProcStats;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * An hour under load: the starter's running-totals pipeline (profile {@code totals}: JSON payments → total
 * per account → exactly-once sink; embedded Flink, 1 s checkpoints) in a JVM of its own, the broker in
 * another, fed {@code --rate} payments/s — below saturation — for {@code --minutes}. Every minute the harness
 * has the app's JVM run a full GC ({@code jcmd GC.run}: the heap after it is the live set) and records RSS,
 * heap after that GC, threads, open files, the minute's checkpoints (count, duration p50/max, size), the
 * consumer group's lag, the end-to-end latency of the minute's results (p50/p99: now − the input's
 * timestamp at {@code read_committed} visibility) and the WARN/ERROR lines the app logged. At the end every
 * payment must have been answered exactly once. Writes {@code soak.csv}, {@code soak.svg} and
 * {@code soak.md} (the table and the verdicts) to {@code --out}.
 *
 * <pre>
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.pipeline.SoakBenchmark \
 *     -Dexec.args="--minutes 60 --rate 5000 --out docs/benchmarks/soak"
 * </pre>
 */
public final class SoakBenchmark {

    /** One minute of a soak run; NaN or -1 where nothing was measured. */
    record Row(
            int minute,
            long sent,
            long answered,
            double rssMb,
            double heapAfterGcMb,
            int threads,
            int openFiles,
            int checkpoints,
            double checkpointP50Ms,
            double checkpointMaxMs,
            long checkpointBytes,
            long lag,
            double latencyP50Ms,
            double latencyP99Ms,
            int warnings,
            int errors) {

        static final String HEADER = "minute,sent,answered,rss_mb,heap_after_gc_mb,threads,open_files,checkpoints,"
                + "checkpoint_p50_ms,checkpoint_max_ms,checkpoint_bytes,lag,latency_p50_ms,latency_p99_ms,warn,error";

        String csv() {
            return String.format(
                    Locale.ROOT,
                    "%d,%d,%d,%.1f,%.1f,%d,%d,%d,%.0f,%.0f,%d,%d,%.0f,%.0f,%d,%d",
                    minute,
                    sent,
                    answered,
                    rssMb,
                    heapAfterGcMb,
                    threads,
                    openFiles,
                    checkpoints,
                    checkpointP50Ms,
                    checkpointMaxMs,
                    checkpointBytes,
                    lag,
                    latencyP50Ms,
                    latencyP99Ms,
                    warnings,
                    errors);
        }
    }

    private SoakBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> f = PipelineBenchmark.options(
                Map.of(
                        "minutes",
                        "60",
                        "rate",
                        "5000",
                        "checkpoint",
                        "1s",
                        "variants",
                        "starter",
                        "out",
                        "target/soak"),
                args);
        run(
                PipelineBenchmark.Settings.of(f),
                Integer.parseInt(f.get("minutes")),
                Integer.parseInt(f.get("rate")),
                Path.of(f.get("out")),
                System.out);
    }

    static List<Row> run(PipelineBenchmark.Settings settings, int minutes, int rate, Path outDir, PrintStream out)
            throws Exception {
        Path work = Files.createTempDirectory("soak");
        PipelineVariant.Jars jars = PipelineVariant.Jars.prepare(settings, List.of(PipelineVariant.STARTER), work);
        Path appLog = work.resolve("app.log");
        Path gcLog = work.resolve("gc.log");
        List<String> jvm = new ArrayList<>(settings.jvmOptions());
        jvm.add("-Xlog:gc:file=" + gcLog);
        PipelineBenchmark.Settings withGcLog = settings.withJvmOptions(jvm);
        List<Row> rows = new ArrayList<>();
        try (BrokerProcess broker = BrokerProcess.start(work);
                Admin admin =
                        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            String bootstrap = broker.bootstrapServers();
            IsolatedBenchmark.createTopics(bootstrap, List.of("soak.in", "soak.out"), settings.partitions());
            List<String> command = PipelineVariant.STARTER.command(
                    withGcLog, settings.appArgs(), jars, bootstrap, "soak.in", "soak", "soak.out");
            out.printf(Locale.ROOT, "Soak: %,d payments/s for %d min; app log %s%n", rate, minutes, appLog);
            Process app = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(appLog.toFile())
                    .start();
            SoakLog logs = new SoakLog(appLog, gcLog);
            long sent;
            try (PaymentTraffic traffic =
                    new PaymentTraffic(bootstrap, "soak.in", "soak.out", rate, settings.accounts()).start()) {
                out.println(Row.HEADER);
                long start = System.nanoTime();
                for (int minute = 1; minute <= minutes; minute++) {
                    long due = start + TimeUnit.MINUTES.toNanos(minute);
                    while (System.nanoTime() < due) {
                        if (!app.isAlive()) {
                            throw new IllegalStateException("The app's JVM exited in minute " + minute + "; its log:\n"
                                    + PipelineProcess.tail(appLog));
                        }
                        traffic.rethrow();
                        TimeUnit.MILLISECONDS.sleep(Math.min(500, Math.max(1, (due - System.nanoTime()) / 1_000_000)));
                    }
                    Row row = sample(minute, app, traffic, logs, admin);
                    rows.add(row);
                    out.println(row.csv());
                }
                sent = traffic.stopSending();
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (traffic.answered() < sent && System.nanoTime() < deadline) {
                    TimeUnit.MILLISECONDS.sleep(200);
                }
                Files.createDirectories(outDir);
                SoakReport report = new SoakReport(rows, logs, sent, traffic.answered(), traffic.duplicates(), rate);
                Files.writeString(outDir.resolve("soak.csv"), report.csv());
                Files.writeString(outDir.resolve("soak.svg"), SoakChart.svg(rows, rate));
                Files.writeString(outDir.resolve("soak.md"), report.markdown());
                out.println();
                out.println(report.markdown());
                report.check();
            } finally {
                app.destroy();
                if (!app.waitFor(30, TimeUnit.SECONDS)) {
                    app.destroyForcibly().waitFor();
                }
            }
        }
        return rows;
    }

    private static Row sample(int minute, Process app, PaymentTraffic traffic, SoakLog logs, Admin admin)
            throws Exception {
        fullGc(app.pid());
        SoakLog.Minute lines = logs.read();
        List<Double> latencies =
                traffic.drainLatencies().stream().map(Long::doubleValue).toList();
        return new Row(
                minute,
                traffic.sent(),
                traffic.answered(),
                ProcStats.rssMb(app.pid()),
                lines.heapAfterFullGcMb(),
                ProcStats.threads(app.pid()),
                ProcStats.openFiles(app.pid()),
                lines.checkpointMillis().size(),
                PipelineBenchmark.percentile(lines.checkpointMillis(), 0.5),
                lines.checkpointMillis().stream().mapToDouble(d -> d).max().orElse(Double.NaN),
                lines.checkpointBytes().stream().mapToLong(b -> b).max().orElse(-1),
                lag(admin, "soak", "soak.in"),
                PipelineBenchmark.percentile(latencies, 0.5),
                PipelineBenchmark.percentile(latencies, 0.99),
                lines.warnings(),
                lines.errors());
    }

    /** Has the JVM collect its whole heap now ({@code jcmd <pid> GC.run}), then waits for the GC log line. */
    private static void fullGc(long pid) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process gc = new ProcessBuilder(jcmd.toString(), String.valueOf(pid), "GC.run")
                .redirectErrorStream(true)
                .start();
        String answer = new String(gc.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!gc.waitFor(60, TimeUnit.SECONDS) || gc.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + pid + " GC.run failed: " + answer);
        }
        TimeUnit.MILLISECONDS.sleep(500); // the unified GC log is written asynchronously to the file
    }

    /** The group's lag on the topic: end offsets − committed offsets (all of a partition without a commit). */
    static long lag(Admin admin, String group, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
        admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(topic)
                .partitions()
                .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        long lag = 0;
        for (var end : admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet()) {
            OffsetAndMetadata at = committed.get(end.getKey());
            lag += end.getValue().offset() - (at == null ? 0 : at.offset());
        }
        return lag;
    }

    /** The mean of {@code f} over the rows of minutes {@code from}–{@code to} (inclusive). */
    static double mean(List<Row> rows, int from, int to, ToDoubleFunction<Row> f) {
        return rows.stream()
                .filter(r -> r.minute() >= from && r.minute() <= to)
                .mapToDouble(f)
                .filter(d -> !Double.isNaN(d) && d >= 0)
                .average()
                .orElse(Double.NaN);
    }
}
