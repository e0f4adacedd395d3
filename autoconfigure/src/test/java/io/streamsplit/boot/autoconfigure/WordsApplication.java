package io.streamsplit.boot.autoconfigure;

import java.nio.charset.StandardCharsets;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A small StreamSplit application for the end-to-end tests: source {@code words} → upper case →
 * sink {@code upper}; a value starting with "bad" cannot be deserialized.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class WordsApplication {

    /**
     * Starts the application without a web server: source {@code words} reads {@code <name>-in},
     * sink {@code upper} writes {@code <name>-out}, parallelism 2, checkpoints every 500 ms;
     * {@code properties} add to or override that.
     */
    public static ConfigurableApplicationContext start(String bootstrapServers, String name, String... properties) {
        return new SpringApplicationBuilder(WordsApplication.class).web(WebApplicationType.NONE)
                .properties("spring.application.name=" + name, "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + bootstrapServers,
                        "streamsplit.kafka.sources.words.topics=" + name + "-in",
                        "streamsplit.kafka.sources.words.group-id=" + name,
                        "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
                        "streamsplit.kafka.sinks.upper.topic=" + name + "-out",
                        "streamsplit.kafka.sinks.upper.serializer=utf8",
                        "streamsplit.flink.parallelism=2", "streamsplit.flink.checkpointing.interval=500ms")
                .properties(properties).run();
    }

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
        return pipeline -> pipeline.sink("upper", pipeline.<String>source("words").map(String::toUpperCase));
    }
}
