package io.streamsplit.connector.kafka.source.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The reader's rate limiter: waits as the rate says, and a rate change applies to a wait in progress. */
class AdjustableRateLimiterTest {

    @Test
    void unthrottledNeverWaits() {
        AdjustableRateLimiter<KafkaPartitionSplit> limiter = new AdjustableRateLimiter<>(0);

        for (int i = 0; i < 1_000; i++) {
            assertThat(limiter.acquire(1_000).toCompletableFuture()).isDone();
        }
    }

    @Test
    void theFirstRequestPassesAndTheNextWaitsForThePermitsTheFirstTook() {
        AdjustableRateLimiter<KafkaPartitionSplit> limiter = new AdjustableRateLimiter<>(1); // 1 record/s

        assertThat(limiter.acquire(100).toCompletableFuture()).isDone();
        CompletableFuture<Void> next = limiter.acquire(1).toCompletableFuture();

        assertThat(next).as("100 records at 1/s: the next one waits 100 s").isNotDone();
    }

    @Test
    void theReaderSeesThePendingWaitUntilThePermitIsDueOrTheRateChanges() {
        AdjustableRateLimiter<KafkaPartitionSplit> limiter = new AdjustableRateLimiter<>(1);
        assertThat(limiter.pending())
                .as("nothing asked yet: the reader is available")
                .isDone();
        limiter.acquire(100);
        CompletableFuture<Void> waiting = limiter.acquire(1).toCompletableFuture();

        // the reader answers NOTHING_AVAILABLE and waits on this future instead of spinning
        assertThat(limiter.pending()).isSameAs(waiting).isNotDone();

        limiter.setRate(1_000);
        assertThat(limiter.pending())
                .as("a rate change wakes the reader at once")
                .isDone();
    }

    @Test
    void aNewRateEndsTheWaitForTheOldOne() {
        AdjustableRateLimiter<KafkaPartitionSplit> limiter = new AdjustableRateLimiter<>(1);
        limiter.acquire(100);
        CompletableFuture<Void> waiting = limiter.acquire(1).toCompletableFuture();

        limiter.setRate(0);

        assertThat(waiting).isDone();
        assertThat(limiter.rate()).isZero();
        assertThat(limiter.acquire(1_000_000).toCompletableFuture()).isDone();
    }

    @Test
    void aSlowerRateAppliesFromTheNextRequest() {
        AdjustableRateLimiter<KafkaPartitionSplit> limiter = new AdjustableRateLimiter<>(0);
        limiter.acquire(1_000);

        limiter.setRate(0.5);

        assertThat(limiter.acquire(1).toCompletableFuture())
                .as("nothing owed yet")
                .isDone();
        assertThat(limiter.acquire(1).toCompletableFuture()).as("2 s owed").isNotDone();
    }
}
