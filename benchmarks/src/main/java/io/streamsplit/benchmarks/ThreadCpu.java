package io.streamsplit.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU seconds used by this JVM's threads during one run, grouped by role (the Flink source's
 * fetcher thread, its task thread, the harness's main thread — where the raw consumers read —,
 * the JIT compiler, GC, the broker), read from Linux's
 * {@code /proc/self/task/<tid>/stat} every 50 ms. It shows which thread limits a run: on two cores
 * a reader whose fetcher is busy the whole run cannot go faster by making the task thread
 * cheaper. The report ends with how many cores the JVM kept busy on average: a reader whose
 * threads together use {@code c} CPU seconds cannot finish in less than {@code c / cores}
 * seconds, and a two-thread pipeline (fetcher, task) that keeps the cores only partly busy is
 * waiting on itself or the broker. Threads that end between two samples lose at most their last
 * 50 ms. Off Linux the report is empty.
 */
final class ThreadCpu implements AutoCloseable {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final double TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private final Map<String, Long> lastTicksByThread = new HashMap<>();
    private final Map<String, Long> ticksByRole = new LinkedHashMap<>();
    private final Thread sampler;
    private final long startNanos = System.nanoTime();
    private long endNanos;
    private volatile boolean running = true;

    private ThreadCpu() {
        for (String role : new String[] {"fetcher", "task", "main", "jit", "gc", "broker", "other"}) {
            ticksByRole.put(role, 0L);
        }
        sample(false);
        sampler = new Thread(
                () -> {
                    while (running) {
                        try {
                            Thread.sleep(50);
                        } catch (InterruptedException e) {
                            return;
                        }
                        sample(true);
                    }
                },
                "benchmark-cpu-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts measuring; returns null where {@code /proc} is not there. */
    static ThreadCpu start() {
        return Files.isDirectory(TASKS) ? new ThreadCpu() : null;
    }

    private synchronized void sample(boolean count) {
        try (Stream<Path> tasks = Files.list(TASKS)) {
            tasks.forEach(task -> {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    return; // the thread ended
                }
                int close = stat.lastIndexOf(')');
                String name = stat.substring(stat.indexOf('(') + 1, close);
                String[] fields = stat.substring(close + 2).split(" ");
                long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime + stime
                Long previous = lastTicksByThread.put(task.getFileName() + "/" + name, ticks);
                if (count) {
                    ticksByRole.merge(role(name), ticks - (previous == null ? 0 : previous), Long::sum);
                }
            });
        } catch (IOException e) {
            // /proc went away: nothing more to count
        }
    }

    /** Linux keeps the first 15 characters of a thread's name. */
    static String role(String threadName) {
        if (threadName.startsWith("Source Data Fet")) {
            return "fetcher";
        }
        if (threadName.startsWith("Source: ")) {
            return "task";
        }
        if (threadName.startsWith("io.streamsplit.")) {
            return "main"; // the harness's thread: the raw consumers' loop, job submission
        }
        if (threadName.contains("CompilerThre")) {
            return "jit";
        }
        if (threadName.startsWith("GC Thread") || threadName.startsWith("G1 ")) {
            return "gc";
        }
        if (threadName.startsWith("data-plane-kafk") || threadName.startsWith("kafka-")) {
            return "broker";
        }
        return "other";
    }

    /** CPU seconds of the threads of {@code role} ("task", "fetcher", ...) so far. */
    synchronized double seconds(String role) {
        return ticksByRole.getOrDefault(role, 0L) / TICKS_PER_SECOND;
    }

    @Override
    public synchronized void close() {
        running = false;
        sampler.interrupt();
        sample(true);
        endNanos = System.nanoTime();
    }

    /**
     * "cpu s: fetcher 1.26, task 0.89, main 0.20, jit 0.10, gc 0.20, broker 0.09, other 0.30; 1.21 of
     * 2 cores busy" (after {@link #close()}).
     */
    synchronized String report() {
        StringBuilder line = new StringBuilder("cpu s:");
        ticksByRole.forEach(
                (role, ticks) -> line.append(String.format(Locale.ROOT, " %s %.2f,", role, ticks / TICKS_PER_SECOND)));
        line.setLength(line.length() - 1);
        return line.append(String.format(
                        Locale.ROOT,
                        "; %.2f of %d cores busy",
                        busyCores(),
                        Runtime.getRuntime().availableProcessors()))
                .toString();
    }

    /** CPU seconds of all threads over the wall-clock seconds from start to {@link #close()}. */
    synchronized double busyCores() {
        long ticks = ticksByRole.values().stream().mapToLong(Long::longValue).sum();
        long end = endNanos == 0 ? System.nanoTime() : endNanos;
        return ticks / TICKS_PER_SECOND / Math.max(1e-9, (end - startNanos) / 1e9);
    }
}
