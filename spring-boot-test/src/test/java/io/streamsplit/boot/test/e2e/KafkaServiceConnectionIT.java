package io.streamsplit.boot.test.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.WordsApplication;
import io.streamsplit.boot.test.PipelineTester;
import io.streamsplit.boot.test.ReceivedRecord;
import io.streamsplit.boot.test.StreamSplitTest;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * {@code @StreamSplitTest(kafka = CONNECTION_DETAILS)} with a Testcontainers Kafka declared
 * {@code @ServiceConnection}: no StreamSplit property names the broker; sources, sinks and the tester
 * take the container's address from Spring Boot's {@code KafkaConnectionDetails}, and the test still
 * gets its topics. Skipped where Docker is absent; without Docker the same resolution is covered by
 * {@code StreamSplitAutoConfigurationTest.aKafkaConnectionDetailsBeanWinsOverSpringKafkaProperties}.
 */
@Testcontainers(disabledWithoutDocker = true)
@StreamSplitTest(
        classes = WordsApplication.class,
        kafka = StreamSplitTest.Kafka.CONNECTION_DETAILS,
        properties = {
            "streamsplit.kafka.sources.words.topics=tc-in",
            "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
            "streamsplit.kafka.sinks.upper.topic=tc-out",
            "streamsplit.kafka.sinks.upper.serializer=utf8"
        })
class KafkaServiceConnectionIT {

    @Container
    @ServiceConnection
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.1.1");

    @Autowired
    PipelineTester pipeline;

    @Autowired
    @Qualifier("words")
    StreamSplitKafkaSource<String> words;

    @Test
    void sourcesSinksAndTheTesterUseTheContainer() {
        assertThat(words.consumerProperties()).containsEntry("bootstrap.servers", KAFKA.getBootstrapServers());
        assertThat(pipeline.bootstrapServers()).isEqualTo(KAFKA.getBootstrapServers());
        pipeline.send("tc-in", null, "x");
        pipeline.send("tc-in", null, "y");

        assertThat(pipeline.awaitRecords("tc-out", 2))
                .extracting(ReceivedRecord::value)
                .containsExactlyInAnyOrder("X", "Y");
    }
}
