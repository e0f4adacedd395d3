package io.streamsplit.benchmarks.isolated;

import io.streamsplit.benchmarks.BenchmarkJobs;
import io.streamsplit.benchmarks.Counting;
import io.streamsplit.benchmarks.ReadClock;
import io.streamsplit.benchmarks.SourceThroughputBenchmark;
import io.streamsplit.benchmarks.SourceThroughputBenchmark.Reader;
import io.streamsplit.benchmarks.ThroughputSettings;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;

/**
 * One measured run in a fresh JVM: starts a MiniCluster as a local {@code execute()} does, runs the
 * bounded job of {@link BenchmarkJobs#jobGraph} with one reader over a prepared topic,
 * checks the record count and prints a {@link RunFigures} line. Cold class loading and JIT count,
 * as at a real job start.
 *
 * <pre>
 * java -cp ... io.streamsplit.benchmarks.isolated.ReaderProcess --reader STREAMSPLIT \
 *     --bootstrap localhost:9092 --topic in --records 5000000 --partitions 4 --parallelism 2 --format bytes
 * </pre>
 */
public final class ReaderProcess {

    private ReaderProcess() {}

    public static void main(String[] args) throws Exception {
        long jvmStart = System.nanoTime() - ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
        double mainAt = millis(System.nanoTime() - jvmStart);
        Reader reader = null;
        String bootstrap = null;
        String topic = null;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--reader" -> reader = Reader.valueOf(args[++i]);
                case "--bootstrap" -> bootstrap = args[++i];
                case "--topic" -> topic = args[++i];
                default -> rest.add(args[i]);
            }
        }
        if (reader == null || bootstrap == null || topic == null) {
            throw new IllegalArgumentException("give --reader, --bootstrap and --topic");
        }
        ThroughputSettings settings = ThroughputSettings.parse(rest.toArray(String[]::new));
        StartupLog log = StartupLog.install();

        // the job is defined (its source built) before execute(), as in a user's program
        JobGraph job = BenchmarkJobs.jobGraph(reader, bootstrap, topic, settings);
        long clusterStart = System.nanoTime();
        JobExecutionResult result;
        long clusterStarted;
        try (MiniCluster cluster = SourceThroughputBenchmark.startCluster(settings.parallelism())) {
            clusterStarted = System.nanoTime();
            result = cluster.executeJobBlocking(job);
        }
        Long count = result.getAccumulatorResult(Counting.NAME);
        if (count == null || count != settings.records()) {
            throw new IllegalStateException(
                    reader + " read " + count + " records of " + topic + ", expected " + settings.records());
        }
        long first = ReadClock.firstRecordNanos();
        long last = first + ReadClock.steadyNanos();
        long enumerator = log.enumeratorStartedNanos() == 0 ? clusterStarted : log.enumeratorStartedNanos();
        long assigned = log.splitsAssignedNanos() == 0 ? enumerator : log.splitsAssignedNanos();
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        long pid = ProcessHandle.current().pid();
        RunFigures figures = new RunFigures(
                mainAt,
                millis(clusterStart - jvmStart) - mainAt,
                millis(clusterStarted - clusterStart),
                millis(enumerator - clusterStarted),
                millis(assigned - enumerator),
                millis(first - assigned),
                millis(first - jvmStart),
                millis(last - jvmStart),
                count,
                ProcStats.cpuSeconds(pid),
                ProcStats.peakRssMb(pid),
                // what the heap grew to: G1 sizes it by GC time, so a faster reader may be given more
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() / (1024.0 * 1024),
                gcMillis);
        System.out.println(figures.toLine());
        System.out.flush();
        System.exit(0); // Flink's and Kafka's client threads need not linger
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
