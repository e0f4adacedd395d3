package io.streamsplit.boot.autoconfigure.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.WordsApplication;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * A Testcontainers Kafka with {@code @ServiceConnection} needs no StreamSplit property: sources
 * and sinks take the container's address from Spring Boot's {@code KafkaConnectionDetails}.
 * Skipped where Docker is absent; the same resolution is covered without Docker by
 * {@code StreamSplitAutoConfigurationTest.aKafkaConnectionDetailsBeanWinsOverSpringKafkaProperties}.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(
        classes = WordsApplication.class,
        properties = {
            "streamsplit.kafka.sources.words.topics=tc-in",
            "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
            "streamsplit.kafka.sinks.upper.topic=tc-out",
            "streamsplit.kafka.sinks.upper.serializer=utf8",
            "streamsplit.flink.parallelism=1",
            "streamsplit.flink.checkpointing.interval=500ms"
        })
class KafkaServiceConnectionIT {

    @Container
    @ServiceConnection
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka-native:3.8.0");

    @Autowired
    @Qualifier("words")
    StreamSplitKafkaSource<String> words;

    @Test
    void sourcesAndSinksUseTheContainerAndThePipelineRuns() throws Exception {
        assertThat(words.consumerProperties()).containsEntry("bootstrap.servers", KAFKA.getBootstrapServers());
        KafkaTopics.write(KAFKA.getBootstrapServers(), "tc-in", List.of("x", "y"));
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.getBootstrapServers(), "tc-out"))
                        .containsExactlyInAnyOrder("X", "Y"));
    }
}
