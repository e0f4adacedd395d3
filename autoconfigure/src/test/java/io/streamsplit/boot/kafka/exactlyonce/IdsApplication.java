package io.streamsplit.boot.kafka.exactlyonce;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Source {@code ids} → {@link FailureInjector} → sink {@code out}. Values starting with "bad" cannot
 * be deserialized. Failure points come from {@code test.run}, {@code test.fail-after-records} and
 * {@code test.fail-on-checkpoint}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class IdsApplication {

    @Bean
    KafkaRecordDeserializer<String> idDeserializer() {
        return record -> {
            String value = new String(record.value(), StandardCharsets.UTF_8);
            if (value.startsWith("bad")) {
                throw new IllegalArgumentException("not an id: " + value);
            }
            return value;
        };
    }

    @Bean
    SerializationSchema<String> utf8() {
        return value -> value.getBytes(StandardCharsets.UTF_8);
    }

    @Bean
    StreamSplitPipeline injectFailures(
            @Value("${test.run}") String run,
            @Value("${test.fail-after-records:}") long[] failAfterRecords,
            @Value("${test.fail-on-checkpoint:0}") long failOnCheckpoint) {
        return pipeline -> pipeline.sink(
                "out",
                pipeline.<String>source("ids")
                        .map(new FailureInjector(run, failAfterRecords, failOnCheckpoint))
                        .name("inject failures"));
    }
}
