package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Health over a real HTTP port never says UP for a job that cannot make progress: with a sink topic
 * that does not exist, no UP after the first failure, and DOWN with the reason in the application's
 * terms. Kafka away is {@link HonestHealthWithoutKafkaIT}: the two wait on their own, side by side.
 */
@ExtendWith(OutputCaptureExtension.class)
class HonestHealthIT {

    // as many production clusters: a topic nobody created does not appear on first use
    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA =
            new EmbeddedKafkaExtension(broker -> broker.brokerProperty("auto.create.topics.enable", "false"));

    private final HealthOverHttp health = new HealthOverHttp();

    @Test
    void aSinkTopicThatDoesNotExistIsDownNamingTheSink(CapturedOutput output) throws Exception {
        KAFKA.broker().createTopic("nosink-in", 1);
        // the producer gives up on the missing topic after 3 s instead of Kafka's 60 s
        String[] properties = Stream.concat(
                        Arrays.stream(HealthOverHttp.WEB),
                        Stream.of("streamsplit.kafka.sinks.upper.properties.max.block.ms=3000"))
                .toArray(String[]::new);
        // written before the job starts: the sink blocks on its first record, before any checkpoint
        KafkaTopics.write(KAFKA.bootstrapServers(), "nosink-in", List.of("a"));
        try (ConfigurableApplicationContext app = Words.start(KAFKA.bootstrapServers(), "nosink", properties)) {
            List<String> statuses =
                    health.untilDown(app, "no checkpoint has completed", "sink 'upper' writes to topic 'nosink-out'");
            // UP is honest only until the first record reaches the sink; once the job failed, never again (the
            // leading OUT_OF_SERVICE is the job not ready yet: submitted, before its first checkpoint)
            int ready = 0;
            while (ready < statuses.size() && statuses.get(ready).equals("OUT_OF_SERVICE")) {
                ready++;
            }
            List<String> afterReady = statuses.subList(ready, statuses.size());
            int failed = afterReady.contains("OUT_OF_SERVICE")
                    ? afterReady.indexOf("OUT_OF_SERVICE")
                    : afterReady.indexOf("DOWN");
            assertThat(afterReady.subList(failed + 1, afterReady.size()))
                    .as("statuses after the first failure, of %s", statuses)
                    .doesNotContain("UP");
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            health.read(app).path("details").path("restarts").asLong() >= 2);
        }
        // the failure in the application's terms, once, however often the job restarted
        assertThat(output.getAll()
                        .lines()
                        .filter(line -> line.contains("ERROR")
                                && line.contains(
                                        "Flink job 'nosink' failed: sink 'upper' writes to topic 'nosink-out'")))
                .hasSize(1);
    }
}
