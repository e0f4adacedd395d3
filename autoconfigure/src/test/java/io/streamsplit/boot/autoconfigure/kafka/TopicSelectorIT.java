package io.streamsplit.boot.autoconfigure.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.WordsApplication;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import org.apache.flink.connector.kafka.sink.TopicSelector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A sink with {@code topic-selector} writes each record to the topic its TopicSelector bean picks. */
class TopicSelectorIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Configuration(proxyBeanMethods = false)
    static class Router {

        @Bean
        TopicSelector<String> byFirstLetter() {
            return word -> word.startsWith("A") ? "a-words" : "other-words";
        }
    }

    @Test
    void recordsGoToTheTopicsTheSelectorPicks() throws Exception {
        KAFKA.broker().createTopic("route-in", 2);
        KAFKA.broker().createTopic("a-words", 1);
        KAFKA.broker().createTopic("other-words", 1);
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(WordsApplication.class, Router.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=route",
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                        "streamsplit.kafka.sources.words.topics=route-in",
                        "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
                        "streamsplit.kafka.sinks.upper.topic-selector=byFirstLetter",
                        "streamsplit.kafka.sinks.upper.serializer=utf8",
                        "streamsplit.flink.parallelism=1",
                        "streamsplit.flink.checkpointing.interval=500ms")
                .run()) {
            KafkaTopics.write(KAFKA.bootstrapServers(), "route-in", List.of("apple", "banana", "avocado", "cherry"));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "a-words"))
                        .containsExactlyInAnyOrder("APPLE", "AVOCADO");
                assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "other-words"))
                        .containsExactlyInAnyOrder("BANANA", "CHERRY");
            });
        }
    }
}
