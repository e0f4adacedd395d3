package io.streamsplit.benchmarks;

import java.util.concurrent.atomic.AtomicLong;

/**
 * When the current run's first record was seen and when its input ended, so steady-state
 * throughput (records / (end - first record)) is measured rather than derived by subtracting an
 * average job cost. Static because the Flink readers' counting functions run in the MiniCluster
 * of this JVM, as serialized copies.
 */
public final class ReadClock {

    private static final AtomicLong FIRST_RECORD_NANOS = new AtomicLong();
    private static final AtomicLong END_NANOS = new AtomicLong();

    private ReadClock() {}

    public static void reset() {
        FIRST_RECORD_NANOS.set(0);
        END_NANOS.set(0);
    }

    /** A reader saw its first record (the earliest call of all subtasks counts). */
    public static void firstRecord() {
        FIRST_RECORD_NANOS.compareAndSet(0, System.nanoTime());
    }

    /** A reader reached the end of its input (the latest call of all subtasks counts). */
    public static void end() {
        long now = System.nanoTime();
        END_NANOS.accumulateAndGet(now, Math::max);
    }

    /** Nanos of the first record, 0 when none was seen. */
    public static long firstRecordNanos() {
        return FIRST_RECORD_NANOS.get();
    }

    /** Nanos from the first record to the end of input, 0 when not both were seen. */
    public static long steadyNanos() {
        long first = FIRST_RECORD_NANOS.get();
        long end = END_NANOS.get();
        return first == 0 || end == 0 ? 0 : Math.max(1, end - first);
    }
}
