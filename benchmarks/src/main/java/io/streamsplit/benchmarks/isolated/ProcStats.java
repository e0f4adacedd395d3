package io.streamsplit.benchmarks.isolated;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux's {@code /proc} says about a process: CPU seconds (user + system) and resident memory
 * (current and peak, {@code VmRSS} / {@code VmHWM}). Off Linux, or for a process that has ended,
 * every figure is {@code -1}, so a report shows "n/a" rather than a zero that looks measured.
 */
public final class ProcStats {

    private static final double TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private ProcStats() {}

    /** CPU seconds {@code pid} has used so far, -1 when unknown. */
    public static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU seconds used so far by each group of {@code pid}'s threads: threads named alike but for their
     * digits (Linux keeps a thread's first 15 characters) are one group, the digits shown as {@code #}.
     * Empty when unknown; a thread that has ended is not counted.
     */
    public static java.util.Map<String, Double> cpuSecondsByThread(long pid) {
        java.util.Map<String, Double> byGroup = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm")).trim().replaceAll("\\d+", "#");
                    String stat = Files.readString(task.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    double seconds = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
                    byGroup.merge(name, seconds, Double::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException e) {
            return java.util.Map.of();
        }
        return byGroup;
    }

    /** The peak resident set of {@code pid} in MB ({@code VmHWM}), -1 when unknown. */
    public static double peakRssMb(long pid) {
        return statusMb(pid, "VmHWM:");
    }

    /** The current resident set of {@code pid} in MB ({@code VmRSS}), -1 when unknown. */
    public static double rssMb(long pid) {
        return statusMb(pid, "VmRSS:");
    }

    /** The number of threads of {@code pid}, -1 when unknown. */
    public static int threads(long pid) {
        return (int) statusValue(pid, "Threads:");
    }

    /** The number of open file descriptors of {@code pid} (files, sockets, pipes), -1 when unknown. */
    public static int openFiles(long pid) {
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            return (int) fds.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static double statusMb(long pid, String field) {
        long kb = statusValue(pid, field);
        return kb < 0 ? -1 : kb / 1024.0;
    }

    private static long statusValue(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
