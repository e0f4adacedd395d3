package io.streamsplit.boot.autoconfigure;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A small StreamSplit application for the end-to-end tests: source {@code words} → upper case →
 * sink {@code upper}; a value starting with "bad" cannot be deserialized. Like a typical application
 * class it defines the job's lambdas next to its beans, and no method mentions a Spring type, so in
 * remote mode the cluster can load it (see {@link Words#start} for how the tests run it).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class WordsApplication {

    @Bean
    public KafkaRecordDeserializer<String> wordDeserializer() {
        return record -> {
            String value = new String(record.value(), StandardCharsets.UTF_8);
            if (value.startsWith("bad")) {
                throw new IllegalArgumentException("not a word: " + value);
            }
            return value;
        };
    }

    /** A lambda on purpose: the official KafkaSink cannot read a lambda's type, the starter supplies it. */
    @Bean
    SerializationSchema<String> utf8() {
        return value -> value.getBytes(StandardCharsets.UTF_8);
    }

    @Bean
    StreamSplitPipeline upperCase() {
        return pipeline ->
                pipeline.sink("upper", pipeline.<String>source("words").map(String::toUpperCase));
    }
}
