package io.streamsplit.boot.autoconfigure;

import java.nio.charset.StandardCharsets;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A small StreamSplit application for the end-to-end tests: source {@code words} → upper case →
 * sink {@code upper}; a value starting with "bad" cannot be deserialized.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class WordsApplication {

    @Bean
    KafkaRecordDeserializer<String> wordDeserializer() {
        return record -> {
            String value = new String(record.value(), StandardCharsets.UTF_8);
            if (value.startsWith("bad")) {
                throw new IllegalArgumentException("not a word: " + value);
            }
            return value;
        };
    }

    @Bean
    SimpleStringSchema utf8() {
        return new SimpleStringSchema();
    }

    @Bean
    StreamSplitPipeline upperCase() {
        return pipeline -> pipeline.sink("upper", pipeline.<String>source("words").map(String::toUpperCase));
    }
}
