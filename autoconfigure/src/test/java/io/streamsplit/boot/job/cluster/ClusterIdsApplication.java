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

    /**
     * The README's configuration of this application as command-line arguments, embedded: job {@code job} reads
     * {@code <job>-in} as its group, writes {@code <job>-out} with {@code delivery}, at parallelism 2.
     */
    static java.util.List<String> embeddedArgs(String job, String bootstrapServers, String delivery) {
        return new java.util.ArrayList<>(java.util.List.of(
                "--spring.application.name=" + job,
                "--spring.main.web-application-type=none",
                "--streamsplit.kafka.bootstrap-servers=" + bootstrapServers,
                "--streamsplit.kafka.sources.ids.topics=" + job + "-in",
                "--streamsplit.kafka.sources.ids.group-id=" + job,
                "--streamsplit.kafka.sources.ids.format=string",
                "--streamsplit.kafka.sinks.out.topic=" + job + "-out",
                "--streamsplit.kafka.sinks.out.format=string",
                "--streamsplit.kafka.sinks.out.delivery-guarantee=" + delivery,
                "--streamsplit.flink.parallelism=2"));
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
