package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.isolated.ProcStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * A whole pipeline in a JVM of its own (a StreamSplit app, or a hand-wired Flink job), measured from
 * the outside: it reads input already waiting and writes one output record per input record; the run
 * ends when a {@code read_committed} reader can see them all. Visible records are counted from the output
 * partitions' last stable offsets, read every 50 ms, without reading the records: in a transactional topic
 * every commit also takes one offset per partition (its marker), so there each rise of a partition's
 * offset counts one marker less. That holds while commits are further apart than the polls (checkpoints
 * of 1 s and up); afterwards the records are read back and counted, and a difference fails the run. The
 * partitions' high watermarks, read at the same polls, tell when records were <em>written</em>: with an
 * exactly-once sink that is before they are visible, so the rate from the first to the last record written
 * is the job's own speed where visibility follows the checkpoint cadence (long intervals). The JVM is
 * stopped with SIGTERM at the end.
 */
final class PipelineProcess {

    /**
     * Records/s from the first to the last output record visible, the JVM's CPU seconds per million records
     * in that span (both NaN when all output became visible at once: one commit of a short run), records/s
     * from the first to the last output record written (NaN likewise), its peak RSS in MB, the output
     * records counted at the end, and its log (kept after the JVM ends). From the process's start: seconds
     * to the first output record visible, records/s and CPU seconds per million records up to the last.
     * After the last (and {@link Idle#after()} more): the cores the idle JVM kept busy over {@link Idle#length()}
     * (NaN when not measured), and by
     * thread (names with their digits as {@code #}), busiest first.
     */
    record Figures(
            double recordsPerSecond,
            double cpuPerMillion,
            double writtenPerSecond,
            double peakRssMb,
            long outputRecords,
            Path log,
            double firstOutputSeconds,
            double wholeRecordsPerSecond,
            double wholeCpuPerMillion,
            double idleCores,
            Map<String, Double> idleCoresByThread) {

        /**
         * These figures per input record where each output record stands for {@code inputsPerOutput} of them
         * (a window's): rates times it, CPU per record divided by it. The rates then rest on when windows close,
         * which a job's watermarks or stream time decide, so they are coarser than a one-for-one job's.
         */
        Figures perInputRecord(double inputsPerOutput) {
            return new Figures(
                    recordsPerSecond * inputsPerOutput,
                    cpuPerMillion / inputsPerOutput,
                    writtenPerSecond * inputsPerOutput,
                    peakRssMb,
                    outputRecords,
                    log,
                    firstOutputSeconds,
                    wholeRecordsPerSecond * inputsPerOutput,
                    wholeCpuPerMillion / inputsPerOutput,
                    idleCores,
                    idleCoresByThread);
        }
    }

    /** When idle CPU is measured: over {@code length}, starting {@code after} the last output. */
    record Idle(Duration after, Duration length) {
        static final Idle NONE = new Idle(Duration.ZERO, Duration.ZERO);
    }

    private PipelineProcess() {}

    /**
     * Starts {@code command} with its output to {@code log} and measures it until {@code records} are out,
     * then, for {@code idle} (zero: not at all), what it costs doing nothing.
     */
    static Figures measure(
            String label,
            List<String> command,
            Path log,
            String bootstrap,
            Admin admin,
            String output,
            int partitions,
            long records,
            boolean transactional,
            Idle idle)
            throws Exception {
        Figures figures;
        long started = System.nanoTime();
        Process app = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            List<TopicPartition> outputPartitions = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                outputPartitions.add(new TopicPartition(output, p));
            }
            long[] offsets = new long[partitions];
            long[] commits = new long[partitions];
            long first = 0;
            long countAtFirst = 0;
            double cpuAtFirst = 0;
            long firstWritten = 0;
            long writtenAtFirst = 0;
            long allWritten = 0;
            long lastCount = -1;
            long confirmedBelowAt = -1; // the sum of the ends at which a read found fewer than all records
            long visible = -1; // the records a read found, once they are all out (transactional runs)
            long lastProgress = System.nanoTime();
            while (true) {
                long count = 0;
                long[] lso = ends(admin, outputPartitions, IsolationLevel.READ_COMMITTED);
                for (int p = 0; p < partitions; p++) {
                    if (lso[p] > offsets[p]) {
                        commits[p]++;
                        offsets[p] = lso[p];
                    }
                    count += offsets[p] - (transactional ? commits[p] : 0);
                }
                long now = System.nanoTime();
                long written = 0;
                long[] highWatermarks = ends(admin, outputPartitions, IsolationLevel.READ_UNCOMMITTED);
                for (int p = 0; p < partitions; p++) {
                    // each commit so far left one marker; the open transaction's records count as written
                    written += highWatermarks[p] - (transactional ? commits[p] : 0);
                }
                if (firstWritten == 0 && written > 0) {
                    firstWritten = now;
                    writtenAtFirst = written;
                }
                if (allWritten == 0 && written >= records) {
                    allWritten = now;
                }
                if (first == 0 && count > 0) {
                    first = now;
                    countAtFirst = count;
                    cpuAtFirst = ProcStats.cpuSeconds(app.pid());
                }
                long end = Arrays.stream(lso).sum();
                if (count >= records && transactional && visible < 0 && end != confirmedBelowAt) {
                    // markers are counted one per commit seen, and two commits between polls (or two writers'
                    // commits on one partition) leave two: confirm by reading what is visible
                    long read = BenchmarkSupport.readToEnd(bootstrap, output);
                    if (read < records) {
                        confirmedBelowAt = end; // read again once the end moves
                    } else {
                        visible = read;
                    }
                }
                if (count >= records && (!transactional || visible >= 0)) {
                    double cpuNow = ProcStats.cpuSeconds(app.pid());
                    double cpu = cpuNow - cpuAtFirst;
                    // the rates compare estimates with estimates (first sight and now); the records out are exact
                    long counted = count - countAtFirst;
                    double seconds = Math.max(now - first, 1) / 1e9;
                    long writtenCounted = records - writtenAtFirst;
                    double writtenSeconds = Math.max((allWritten == 0 ? now : allWritten) - firstWritten, 1) / 1e9;
                    // all output in one commit (a short run): no span to measure, NaN rather than 0
                    figures = new Figures(
                            counted == 0 ? Double.NaN : counted / seconds,
                            counted == 0 ? Double.NaN : cpu / counted * 1e6,
                            writtenCounted <= 0 ? Double.NaN : writtenCounted / writtenSeconds,
                            ProcStats.peakRssMb(app.pid()),
                            visible >= 0 ? visible : count,
                            log,
                            (first - started) / 1e9,
                            records / ((now - started) / 1e9),
                            cpuNow / records * 1e6,
                            Double.NaN,
                            Map.of());
                    break;
                }
                if (count != lastCount) {
                    lastCount = count;
                    lastProgress = now;
                }
                if (!app.isAlive()
                        || now - lastProgress > Duration.ofSeconds(90).toNanos()) {
                    throw new IllegalStateException(label + ": " + count + " of " + records + " records out and "
                            + (app.isAlive() ? "no progress for 90 s" : "the JVM exited") + "; its log:\n" + tail(log));
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
            if (!idle.length().isZero()) {
                TimeUnit.MILLISECONDS.sleep(idle.after().toMillis());
                figures = idle(figures, app, idle.length());
            }
        } finally {
            app.destroy(); // SIGTERM: a StreamSplit app stops its job and closes the MiniCluster
            if (!app.waitFor(30, TimeUnit.SECONDS)) {
                app.destroyForcibly().waitFor();
            }
        }
        if (transactional) {
            long read = BenchmarkSupport.readToEnd(bootstrap, output);
            if (read != records) {
                throw new IllegalStateException(label + ": exactly once, yet " + read + " records out for " + records
                        + " in (" + (read > records ? "duplicates" : "lost records") + ")");
            }
        }
        return figures;
    }

    /** {@code figures} with the cores {@code app} keeps busy over {@code idle}, in all and by thread. */
    private static Figures idle(Figures figures, Process app, Duration idle) throws InterruptedException {
        Map<String, Double> before = ProcStats.cpuSecondsByThread(app.pid());
        double cpuBefore = ProcStats.cpuSeconds(app.pid());
        long from = System.nanoTime();
        TimeUnit.MILLISECONDS.sleep(idle.toMillis());
        double seconds = (System.nanoTime() - from) / 1e9;
        double cores = (ProcStats.cpuSeconds(app.pid()) - cpuBefore) / seconds;
        Map<String, Double> byThread = new LinkedHashMap<>();
        ProcStats.cpuSecondsByThread(app.pid()).entrySet().stream()
                .map(e -> Map.entry(e.getKey(), (e.getValue() - before.getOrDefault(e.getKey(), 0.0)) / seconds))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> byThread.put(e.getKey(), e.getValue()));
        return new Figures(
                figures.recordsPerSecond(),
                figures.cpuPerMillion(),
                figures.writtenPerSecond(),
                figures.peakRssMb(),
                figures.outputRecords(),
                figures.log(),
                figures.firstOutputSeconds(),
                figures.wholeRecordsPerSecond(),
                figures.wholeCpuPerMillion(),
                cores,
                byThread);
    }

    /** The last 80 lines of a log, for an error message. */
    static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
    }

    /**
     * Each partition's end as {@code isolation} sees it: the last stable offset (what a read_committed
     * consumer can see) or the high watermark (everything written, open transactions included).
     */
    private static long[] ends(Admin admin, List<TopicPartition> partitions, IsolationLevel isolation)
            throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
        partitions.forEach(p -> latest.put(p, OffsetSpec.latest()));
        return admin
                .listOffsets(latest, new ListOffsetsOptions(isolation))
                .all()
                .get(30, TimeUnit.SECONDS)
                .values()
                .stream()
                .mapToLong(info -> info.offset())
                .toArray();
    }
}
