package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole path a user takes: YAML-style properties, a deserializer, a serializer and a pipeline
 * bean; the job runs on the embedded MiniCluster against a real in-JVM broker, and the output
 * topic holds exactly the transformed input, the dead-letter topic exactly the bad record.
 */
@SpringBootTest(
        classes = WordsApplication.class,
        properties = {
            "spring.application.name=words-it",
            "streamsplit.kafka.embedded.enabled=false",
            "streamsplit.kafka.sources.words.topics=words-in",
            "streamsplit.kafka.sources.words.group-id=words-it",
            "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
            "streamsplit.kafka.sources.words.bad-record-policy=dead-letter",
            "streamsplit.kafka.sources.words.dead-letter-topic=words-in.DLT",
            "streamsplit.kafka.sinks.upper.topic=words-out",
            "streamsplit.kafka.sinks.upper.serializer=utf8",
            "streamsplit.flink.parallelism=2",
            "streamsplit.flink.checkpointing.interval=500ms"
        })
// the broker of this class stops after it: its context (and job) must stop with it, not linger in the cache
@DirtiesContext
class StreamSplitApplicationIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @DynamicPropertySource
    static void kafka(DynamicPropertyRegistry registry) {
        registry.add("streamsplit.kafka.bootstrap-servers", KAFKA::bootstrapServers);
    }

    @BeforeAll
    static void topics() {
        KAFKA.broker().createTopic("words-in", 3);
        KAFKA.broker().createTopic("words-out", 2);
        KAFKA.broker().createTopic("words-in.DLT", 1);
    }

    @Autowired
    JobClient jobClient;

    @Autowired
    @Qualifier("words")
    StreamSplitKafkaSource<String> words;

    @Test
    void pipelineWritesExactlyTheTransformedRecordsAndDeadLettersTheBadOne() throws Exception {
        List<String> input = IntStream.range(0, 300).mapToObj(i -> "word-" + i).toList();
        KafkaTopics.write(KAFKA.bootstrapServers(), "words-in", input.subList(0, 150));
        KafkaTopics.write(KAFKA.bootstrapServers(), "words-in", List.of("bad-record"));
        KafkaTopics.write(KAFKA.bootstrapServers(), "words-in", input.subList(150, 300));

        List<String> expected = input.stream().map(String::toUpperCase).toList();
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() -> assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "words-out"))
                        .hasSameSizeAs(expected));
        assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), "words-out"))
                .containsExactlyInAnyOrderElementsOf(expected);

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(KafkaTopics.readAll(KAFKA.bootstrapServers(), "words-in.DLT"))
                        .hasSize(1));
        ConsumerRecord<byte[], byte[]> dead =
                KafkaTopics.readAll(KAFKA.bootstrapServers(), "words-in.DLT").get(0);
        assertThat(new String(dead.value(), StandardCharsets.UTF_8)).isEqualTo("bad-record");
        assertThat(new String(
                        dead.headers().lastHeader(DeadLetterRecord.HEADER_TOPIC).value(), StandardCharsets.UTF_8))
                .isEqualTo("words-in");
        assertThat(new String(
                        dead.headers()
                                .lastHeader(DeadLetterRecord.HEADER_EXCEPTION_MESSAGE)
                                .value(),
                        StandardCharsets.UTF_8))
                .contains("not a word: bad-record");
    }

    @Test
    void jobClientAndSourceBeansDescribeTheRunningJob() throws Exception {
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(jobClient.getJobStatus().get()).isEqualTo(JobStatus.RUNNING));
        assertThat(words.consumerProperties()).containsEntry("bootstrap.servers", KAFKA.bootstrapServers());
        assertThat(words.name()).isEqualTo("words");
    }
}
