package io.streamsplit.boot.job.cluster;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.datastream.DataStream;
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
        java.util.List<String> args = readmeArgs(job, bootstrapServers, delivery);
        args.add("--spring.main.web-application-type=none");
        return args;
    }

    /**
     * The same on a cluster, exactly-once, with checkpoints every second in {@code <work>/checkpoints}, on the
     * cluster whose REST API is at {@code localhost:<restPort>}. No web setting: callers add theirs.
     */
    static java.util.List<String> remoteArgs(
            String job, String bootstrapServers, int restPort, java.nio.file.Path work) {
        java.util.List<String> args = readmeArgs(job, bootstrapServers, "exactly-once");
        args.addAll(java.util.List.of(
                "--streamsplit.flink.checkpointing.interval=1s",
                "--streamsplit.flink.mode=remote",
                "--streamsplit.flink.remote.host=localhost",
                "--streamsplit.flink.remote.port=" + restPort,
                "--streamsplit.flink.remote.exclude-jars="
                        + io.streamsplit.boot.autoconfigure.SharedFlinkCluster.TEST_LIBRARIES,
                "--streamsplit.flink.checkpointing.storage="
                        + work.resolve("checkpoints").toUri()));
        return args;
    }

    private static java.util.List<String> readmeArgs(String job, String bootstrapServers, String delivery) {
        return new java.util.ArrayList<>(java.util.List.of(
                "--spring.application.name=" + job,
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

    /**
     * With {@code test.seen-uid}, the ids pass a keyed operator with state under that uid first ({@code seen}): a
     * version that renames it drops that state.
     */
    @Bean
    StreamSplitPipeline tagged(@Value("${test.version:1}") int version, @Value("${test.seen-uid:}") String seenUid) {
        return pipeline -> {
            DataStream<String> ids = pipeline.<String>source("ids");
            if (!seenUid.isEmpty()) {
                ids = ids.keyBy(id -> id).map(new Seen()).name("seen").uid(seenUid);
            }
            pipeline.sink("out", ids.map(new Tag(version)).name("tag").uid("tag"));
        };
    }

    /** Passes each id on and remembers, per id, that it was seen: keyed state. */
    static final class Seen extends RichMapFunction<String, String> {

        private static final long serialVersionUID = 1L;
        private transient ValueState<Boolean> seen;

        @Override
        public void open(OpenContext context) {
            seen = getRuntimeContext().getState(new ValueStateDescriptor<>("seen", Boolean.class));
        }

        @Override
        public String map(String id) throws Exception {
            seen.update(true);
            return id;
        }
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
