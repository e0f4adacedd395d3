package io.streamsplit.boot.flink.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.time.Duration;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A job whose key-by needs more network buffers than the embedded MiniCluster's network memory holds fails
 * with Flink's message, which names Flink's keys; the application's health names ours, with a size.
 */
class NetworkMemoryIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void tooLittleNetworkMemoryForTheJobNamesTheStarterPropertyAndASize() {
        KAFKA.broker().createTopic("netmem-in", 1);
        KAFKA.broker().createTopic("netmem-out", 1);
        try (ConfigurableApplicationContext app = Words.start(
                new Class<?>[] {KeyedWords.class},
                KAFKA.bootstrapServers(),
                "netmem",
                "streamsplit.flink.parallelism=8",
                "streamsplit.flink.embedded.network-memory=1MB",
                "streamsplit.flink.restart.strategy=none")) {
            StreamSplitHealthIndicator indicator = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Health health = indicator.health();
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat(health.getDetails().get("reason").toString())
                        .contains("streamsplit.flink.embedded.network-memory = '1MB'")
                        .contains("network buffers of 32 KB")
                        .containsPattern("Raise streamsplit.flink.embedded.network-memory to at least \\d+MB");
            });
        }
    }

    /** A key-by beside the words pipeline: an exchange between parallel tasks, which takes network buffers. */
    @Configuration(proxyBeanMethods = false)
    static class KeyedWords {

        @Bean
        StreamSplitPipeline keyedWords() {
            return pipeline -> pipeline.<String>source("words")
                    .keyBy(word -> word)
                    .map(String::length)
                    .sinkTo(new DiscardingSink<>());
        }
    }
}
