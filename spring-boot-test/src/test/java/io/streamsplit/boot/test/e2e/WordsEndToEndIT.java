package io.streamsplit.boot.test.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.WordsApplication;
import io.streamsplit.boot.test.DeadLetter;
import io.streamsplit.boot.test.PipelineTester;
import io.streamsplit.boot.test.ReceivedRecord;
import io.streamsplit.boot.test.StreamSplitTest;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;

/**
 * The whole path a user takes: properties, a deserializer, a serializer and a pipeline bean; the job
 * runs on the embedded MiniCluster against a real broker, and the output topic holds exactly the
 * transformed input, the dead-letter topic exactly the bad record.
 */
@StreamSplitTest(
        classes = WordsApplication.class,
        partitions = 3,
        properties = {
            "spring.application.name=words-it",
            "streamsplit.kafka.sources.words.topics=words-in",
            "streamsplit.kafka.sources.words.group-id=words-it",
            "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
            "streamsplit.kafka.sources.words.bad-record-policy=dead-letter",
            "streamsplit.kafka.sources.words.dead-letter-topic=words-in.DLT",
            "streamsplit.kafka.sinks.upper.topic=words-out",
            "streamsplit.kafka.sinks.upper.serializer=utf8"
        })
class WordsEndToEndIT {

    @Autowired
    PipelineTester pipeline;

    @Autowired
    JobClient jobClient;

    @Autowired
    @Qualifier("words")
    StreamSplitKafkaSource<String> words;

    @Test
    void pipelineWritesExactlyTheTransformedRecordsAndDeadLettersTheBadOne() {
        List<String> input = IntStream.range(0, 300).mapToObj(i -> "word-" + i).toList();
        input.subList(0, 150).forEach(word -> pipeline.send("words-in", null, word));
        pipeline.send("words-in", null, "bad-record");
        input.subList(150, 300).forEach(word -> pipeline.send("words-in", null, word));

        assertThat(pipeline.awaitRecords("words-out", 300))
                .extracting(ReceivedRecord::value)
                .containsExactlyInAnyOrderElementsOf(
                        input.stream().map(String::toUpperCase).toList());

        List<DeadLetter> dead = pipeline.awaitDeadLetters("words", 1);
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).value()).isEqualTo("bad-record");
        assertThat(dead.get(0).originalTopic()).isEqualTo("words-in");
        assertThat(dead.get(0).exceptionMessage()).contains("not a word: bad-record");
    }

    @Test
    void jobClientAndSourceBeansDescribeTheRunningJob() throws Exception {
        assertThat(jobClient.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
        assertThat(words.consumerProperties()).containsEntry("bootstrap.servers", pipeline.bootstrapServers());
        assertThat(words.name()).isEqualTo("words");
    }
}
