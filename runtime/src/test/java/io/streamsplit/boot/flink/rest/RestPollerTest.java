package io.streamsplit.boot.flink.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Stopping a REST poller never aborts a poll in flight: an aborted HTTP exchange is a WARN on Flink's side. */
class RestPollerTest {

    @Test
    void stopWaitsForThePollInFlightAndRunsNoMore() throws Exception {
        CountDownLatch polling = new CountDownLatch(1);
        CountDownLatch answered = new CountDownLatch(1); // the HTTP exchange under way until counted down
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicBoolean finished = new AtomicBoolean();
        AtomicInteger polls = new AtomicInteger();
        RestPoller poller = new RestPoller("test-poller", Duration.ofMillis(10), () -> {
            polls.incrementAndGet();
            polling.countDown();
            try {
                finished.set(answered.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });
        assertThat(polling.await(10, TimeUnit.SECONDS)).isTrue();

        Thread stopper = new Thread(poller::stop, "stopper");
        stopper.start();
        // waiting for the poll (or, if stop aborted it, already done)
        await().atMost(Duration.ofSeconds(10))
                .until(() -> stopper.getState() == Thread.State.TIMED_WAITING
                        || stopper.getState() == Thread.State.TERMINATED);
        answered.countDown();
        stopper.join(10_000);

        assertThat(interrupted).as("the poll in flight was not interrupted").isFalse();
        assertThat(finished).as("the poll in flight got its answer").isTrue();
        assertThat(stopper.isAlive()).as("stop returned once the poll was done").isFalse();
        int after = polls.get();
        await().during(Duration.ofMillis(100))
                .atMost(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(polls).as("no poll after stop").hasValue(after));
    }

    @Test
    void aPollThatStopsItsOwnPollerReturnsAtOnce() throws Exception {
        CountDownLatch returned = new CountDownLatch(1);
        AtomicInteger polls = new AtomicInteger();
        RestPoller[] self = new RestPoller[1];
        CountDownLatch created = new CountDownLatch(1);
        self[0] = new RestPoller("test-poller-self", Duration.ofMillis(10), () -> {
            polls.incrementAndGet();
            try {
                created.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long start = System.nanoTime();
            self[0].stop(); // e.g. the job reached a terminal state
            if (System.nanoTime() - start < RestPoller.GRACE.toNanos()) {
                returned.countDown();
            }
        });
        created.countDown();

        assertThat(returned.await(10, TimeUnit.SECONDS))
                .as("stop from the poll itself does not wait for itself")
                .isTrue();
        await().during(Duration.ofMillis(100))
                .atMost(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(polls).hasValue(1));
    }
}
