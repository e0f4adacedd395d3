package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** When {@link BusyCheckpoints} asks for a checkpoint: only after the sources read, one at a time, per run. */
class BusyCheckpointsTest {

    private final AtomicReference<String> job = new AtomicReference<>("run-1");
    private final AtomicLong progress = new AtomicLong(100);
    private final List<CompletableFuture<Void>> asked = new ArrayList<>();

    private BusyCheckpoints busy() {
        // a long interval: the test calls look() itself
        BusyCheckpoints busy =
                BusyCheckpoints.start("orders", Duration.ofHours(1), job::get, id -> progress.get(), id -> {
                    CompletableFuture<Void> checkpoint = new CompletableFuture<>();
                    asked.add(checkpoint);
                    return checkpoint;
                });
        busy.look(); // meets the run
        return busy;
    }

    @Test
    void asksOnlyWhenTheSourcesReadSinceTheLastAsk() {
        try (BusyCheckpoints busy = busy()) {
            busy.look();
            assertThat(asked).as("nothing read yet").isEmpty();

            progress.addAndGet(5);
            busy.look();
            assertThat(asked).hasSize(1);
            asked.get(0).complete(null);

            busy.look();
            assertThat(asked).as("nothing read since").hasSize(1);
            progress.addAndGet(1);
            busy.look();
            assertThat(asked).hasSize(2);
            assertThat(busy.triggered()).isEqualTo(2);
        }
    }

    @Test
    void neverAsksWhileACheckpointIsInFlightNorForARunThatDoesNotRun() {
        try (BusyCheckpoints busy = busy()) {
            progress.addAndGet(5);
            busy.look();
            progress.addAndGet(5);
            busy.look();
            assertThat(asked).as("the first is not done").hasSize(1);

            asked.get(0).completeExceptionally(new IllegalStateException("declined"));
            job.set(null);
            progress.addAndGet(5);
            busy.look();
            assertThat(asked).as("no run").hasSize(1);

            job.set("run-2");
            busy.look();
            assertThat(asked).as("a new run: its progress is where it starts").hasSize(1);
            progress.addAndGet(1);
            busy.look();
            assertThat(asked).hasSize(2);
        }
    }
}
