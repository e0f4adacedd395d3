package io.streamsplit.boot.autoconfigure.kafka.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import org.junit.jupiter.api.Test;

/**
 * The dev broker stands in for Kafka in a development run only, unless asked: an application's classes
 * loaded from a directory (the IDE, tests) are a development run, from a jar (java -jar, an extracted
 * layout, Flink's application mode) a packaged one.
 */
class EmbeddedKafkaDevBrokerTest {

    @Test
    void classesFromADirectoryAreADevelopmentRunClassesFromAJarAreNot() {
        assertThat(EmbeddedKafkaDevBroker.isDevelopmentRun(EmbeddedKafkaDevBrokerTest.class))
                .as("test classes, from target/test-classes")
                .isTrue();
        assertThat(EmbeddedKafkaDevBroker.isDevelopmentRun(Test.class))
                .as("a class from a jar")
                .isFalse();
        assertThat(EmbeddedKafkaDevBroker.isDevelopmentRun(String.class))
                .as("a JDK class: no code source")
                .isFalse();
    }

    @Test
    void enabledDecidesWhenSetElseTheRun() {
        StreamSplitKafkaProperties kafka = new StreamSplitKafkaProperties();
        assertThat(new EmbeddedKafkaDevBroker(kafka, true).allowed()).isTrue();
        assertThat(new EmbeddedKafkaDevBroker(kafka, false).allowed()).isFalse();
        assertThat(new EmbeddedKafkaDevBroker(kafka, false).whyNotStarted()).contains("packaged (java -jar)");

        kafka.getEmbedded().setEnabled(true);
        assertThat(new EmbeddedKafkaDevBroker(kafka, false).allowed())
                .as("asked for explicitly: a packaged demo")
                .isTrue();
        kafka.getEmbedded().setEnabled(false);
        assertThat(new EmbeddedKafkaDevBroker(kafka, true).allowed()).isFalse();
    }
}
