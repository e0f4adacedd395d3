package io.streamsplit.boot.job.cluster;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * An application as a user deploys it to a cluster, run in its own JVM by the lifecycle tests: source
 * {@code ids} → a map that tags each id with the application's version ({@code test.version}) → an
 * exactly-once sink {@code out}. A new version is the same pipeline with another tag: a changed job.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ClusterIdsApplication {

    public static void main(String[] args) {
        SpringApplication.run(ClusterIdsApplication.class, args);
    }

    @Bean
    KafkaRecordDeserializer<String> idDeserializer() {
        return record -> new String(record.value(), StandardCharsets.UTF_8);
    }

    @Bean
    SerializationSchema<String> utf8() {
        return value -> value.getBytes(StandardCharsets.UTF_8);
    }

    @Bean
    StreamSplitPipeline tagged(@Value("${test.version:1}") int version) {
        return pipeline -> pipeline.sink(
                "out",
                pipeline.<String>source("ids").map(new Tag(version)).name("tag").uid("tag"));
    }

    /** {@code id-7} → {@code id-7@v2}: which version of the application wrote each id. */
    static final class Tag implements MapFunction<String, String> {

        private static final long serialVersionUID = 1L;
        private final int version;

        Tag(int version) {
            this.version = version;
        }

        @Override
        public String map(String id) {
            return id + "@v" + version;
        }
    }
}
