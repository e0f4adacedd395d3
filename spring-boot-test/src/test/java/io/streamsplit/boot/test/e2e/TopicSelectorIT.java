package io.streamsplit.boot.test.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.WordsApplication;
import io.streamsplit.boot.test.PipelineTester;
import io.streamsplit.boot.test.ReceivedRecord;
import io.streamsplit.boot.test.StreamSplitTest;
import org.apache.flink.connector.kafka.sink.TopicSelector;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** A sink with {@code topic-selector} writes each record to the topic its TopicSelector bean picks. */
@StreamSplitTest(
        classes = {WordsApplication.class, TopicSelectorIT.Router.class},
        topics = {"a-words", "other-words"},
        properties = {
            "spring.application.name=route",
            "streamsplit.kafka.sources.words.topics=route-in",
            "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
            "streamsplit.kafka.sinks.upper.topic-selector=byFirstLetter",
            "streamsplit.kafka.sinks.upper.serializer=utf8"
        })
class TopicSelectorIT {

    @TestConfiguration(proxyBeanMethods = false)
    static class Router {

        @Bean
        TopicSelector<String> byFirstLetter() {
            return word -> word.startsWith("A") ? "a-words" : "other-words";
        }
    }

    @Autowired
    PipelineTester pipeline;

    @Test
    void recordsGoToTheTopicsTheSelectorPicks() {
        for (String word : new String[] {"apple", "banana", "avocado", "cherry"}) {
            pipeline.send("route-in", null, word);
        }

        assertThat(pipeline.awaitRecords("a-words", 2))
                .extracting(ReceivedRecord::value)
                .containsExactlyInAnyOrder("APPLE", "AVOCADO");
        assertThat(pipeline.awaitRecords("other-words", 2))
                .extracting(ReceivedRecord::value)
                .containsExactlyInAnyOrder("BANANA", "CHERRY");
    }
}
