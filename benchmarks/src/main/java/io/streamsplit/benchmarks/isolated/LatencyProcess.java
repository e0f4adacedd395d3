package io.streamsplit.benchmarks.isolated;

import io.streamsplit.benchmarks.LatencyBenchmark;
import io.streamsplit.benchmarks.LatencyBenchmark.Histogram;
import io.streamsplit.benchmarks.LatencyBenchmark.Percentiles;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;

/**
 * The latency job of {@link LatencyBenchmark} in a JVM of its own: prints {@code READY} once the job
 * runs and its readers have had time for their first fetch, counts until {@code --expected} records
 * arrived, prints one {@code LATENCY} line and exits. Send and receive times are
 * {@code System.nanoTime()} of two JVMs on one Linux machine, both {@code CLOCK_MONOTONIC}.
 */
public final class LatencyProcess {

    static final String READY = "READY";
    static final String PREFIX = "LATENCY ";

    private LatencyProcess() {}

    public static void main(String[] args) throws Exception {
        LatencyBenchmark.Reader reader = LatencyBenchmark.Reader.valueOf(args[0]);
        String bootstrap = args[1];
        String topic = args[2];
        int parallelism = Integer.parseInt(args[3]);
        long expected = Long.parseLong(args[4]);
        Histogram.reset();
        JobClient job = LatencyBenchmark.startJob(reader, bootstrap, topic, parallelism);
        LatencyBenchmark.awaitRunning(job);
        TimeUnit.SECONDS.sleep(2); // splits assigned and the first fetch issued
        System.out.println(READY);
        System.out.flush();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (Histogram.count() < expected && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
        Percentiles p = Histogram.percentiles();
        System.out.printf(
                Locale.ROOT, PREFIX + "%.3f %.3f %.3f %.3f %d%n", p.p50(), p.p99(), p.p999(), p.max(), p.count());
        System.out.flush();
        System.exit(p.count() >= expected ? 0 : 1);
    }

    /** Parses the {@code LATENCY} line. */
    static Percentiles parse(String line) {
        String[] f = line.substring(PREFIX.length()).trim().split(" ");
        return new Percentiles(
                Double.parseDouble(f[0]),
                Double.parseDouble(f[1]),
                Double.parseDouble(f[2]),
                Double.parseDouble(f[3]),
                Long.parseLong(f[4]));
    }
}
