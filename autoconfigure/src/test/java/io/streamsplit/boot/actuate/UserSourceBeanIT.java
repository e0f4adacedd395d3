package io.streamsplit.boot.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@code StreamSplitKafkaSource} bean the application defines under a YAML source's name replaces
 * it: the job reads what the bean says, and the split endpoint describes the bean as built (its
 * pattern and discovery interval), not the YAML entry that no longer applies.
 */
class UserSourceBeanIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void theSplitEndpointDescribesTheSourceBeanNotTheYamlItReplaced() throws Exception {
        KAFKA.broker().createTopic("bean-a", 2);
        KAFKA.broker().createTopic("userbean-out", 1);
        try (ConfigurableApplicationContext app = Words.start(
                new Class<?>[] {OwnSource.class},
                KAFKA.bootstrapServers(),
                "userbean",
                "streamsplit.flink.parallelism=1")) {
            KafkaTopics.write(KAFKA.bootstrapServers(), "bean-a", List.of("from", "the", "bean"));
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "userbean-out"))
                            .containsExactlyInAnyOrder("FROM", "THE", "BEAN"));
            SourceState words =
                    app.getBean(KafkaSplitStates.class).read().sources().get("words");
            // YAML says topics [userbean-in] and no discovery; the bean reads bean-.* every 2 s
            assertThat(words.topics()).isEmpty();
            assertThat(words.pattern()).isEqualTo("bean-.*");
            assertThat(words.discoveryInterval()).isEqualTo("2s");
            assertThat(words.bounded()).isFalse();
            assertThat(words.splits()).extracting(SplitState::topic).containsOnly("bean-a");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnSource {

        @Bean
        StreamSplitKafkaSource<String> words(@Value("${streamsplit.kafka.bootstrap-servers}") String servers) {
            return StreamSplitKafkaSource.<String>builder()
                    .setName("words")
                    .setBootstrapServers(servers)
                    .setTopicPattern(Pattern.compile("bean-.*"))
                    .setPartitionDiscoveryInterval(Duration.ofSeconds(2))
                    .setValueOnlyDeserializer(new SimpleStringSchema())
                    .build();
        }
    }
}
