package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

/** The CPU report's "cores busy" figure, which tells a reader waiting on itself from one short of CPU. */
class ThreadCpuTest {

    @Test
    void countsTheCpuSecondsOfABusyThreadAsBusyCores() {
        ThreadCpu cpu = ThreadCpu.start();
        assumeTrue(cpu != null, "no /proc/self/task: the CPU report exists on Linux only");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long startWall = System.nanoTime();
        long startCpu = threads.getCurrentThreadCpuTime();
        long spins = 0;
        // 300 ms of this thread's own CPU time, however loaded the machine is
        while (threads.getCurrentThreadCpuTime() - startCpu < 300_000_000L) {
            spins++;
        }
        cpu.close();
        double wallSeconds = (System.nanoTime() - startWall) / 1e9;
        int cores = Runtime.getRuntime().availableProcessors();

        assertThat(spins).isPositive();
        // at least the busy thread's 0.3 s (less one 10 ms tick each at start and end) was counted
        assertThat(cpu.busyCores() * wallSeconds).isGreaterThanOrEqualTo(0.25);
        assertThat(cpu.busyCores()).isLessThanOrEqualTo(cores + 0.5);
        assertThat(cpu.report())
                .startsWith("cpu s: fetcher ")
                .endsWith(" of " + cores + " cores busy")
                .contains(", main ");
    }
}
