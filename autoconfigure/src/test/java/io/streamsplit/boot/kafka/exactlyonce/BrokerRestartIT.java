package io.streamsplit.boot.kafka.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The broker goes away mid-run and comes back on the same port with the same log directories
 * (its own broker, so other tests are not disturbed): the job fails, restarts from its last
 * checkpoint, and the output still holds every id exactly once.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES) // its own waits add up to more than the 180 s default of the module
class BrokerRestartIT {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerRestartIT.class);

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void exactlyOnceHoldsAcrossABrokerRestart() throws Exception {
        IdsRun run = new IdsRun(KAFKA.bootstrapServers());
        KAFKA.broker().createTopic(run.input, 3);
        KAFKA.broker().createTopic(run.output, 2);
        KAFKA.broker().createTopic(run.deadLetters, 1);
        int records = 30_000;
        int half = records / 2;
        try (ConfigurableApplicationContext app = run.start("exactly-once")) {
            // the second half is written only after the restart, so the job is mid-run when the broker
            // goes, however fast or slow this machine is
            CompletableFuture<Void> firstHalf = run.writeWhileRunning(0, half, 250);
            run.awaitDistinct(run.output, 3_000, Duration.ofMinutes(2));
            int beforeRestart = run.committed(run.output).size();
            KAFKA.broker().stop();
            KAFKA.broker().start();
            LOG.info("broker restarted at {} after {} ids were committed", KAFKA.bootstrapServers(), beforeRestart);
            CompletableFuture<Void> secondHalf = run.writeWhileRunning(half, records, 250);
            firstHalf.get(3, TimeUnit.MINUTES);
            secondHalf.get(3, TimeUnit.MINUTES);
            LOG.info(
                    "all {} ids written; {} committed so far",
                    records,
                    run.committed(run.output).size());
            run.awaitDistinct(run.output, records, Duration.ofMinutes(3));
            assertThat(run.committed(run.output))
                    .isEqualTo(IntStream.range(0, records).boxed().collect(Collectors.toMap(i -> "id-" + i, i -> 1)));
        }
    }
}
