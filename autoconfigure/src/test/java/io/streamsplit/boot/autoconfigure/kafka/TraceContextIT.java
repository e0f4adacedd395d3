package io.streamsplit.boot.autoconfigure.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.connector.kafka.trace.TraceCarrier;
import io.streamsplit.connector.kafka.trace.TraceContext;
import io.streamsplit.connector.kafka.trace.TraceHeaders;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * W3C trace context from input records to output records, on the embedded broker and MiniCluster:
 * through record-to-record operators with no code (each output record carries its input record's
 * {@code traceparent}, {@code tracestate} and {@code baggage}; a record without them gets none), and
 * past a {@code keyBy} through an element that is a {@link TraceCarrier}.
 */
class TraceContextIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    /** The latest order per customer, with the trace context of the order it came from. */
    public record Latest(
            String customer, String order, @Nullable TraceHeaders trace) implements TraceCarrier {
        @Override
        public @Nullable TraceHeaders traceHeaders() {
            return trace;
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TracedApplication {

        @Bean
        KafkaRecordDeserializer<String> text() {
            return record -> new String(record.value(), StandardCharsets.UTF_8);
        }

        @Bean
        SerializationSchema<String> utf8() {
            return value -> value.getBytes(StandardCharsets.UTF_8);
        }

        @Bean
        SerializationSchema<Latest> latestWriter() {
            return latest -> (latest.customer() + "=" + latest.order()).getBytes(StandardCharsets.UTF_8);
        }

        @Bean
        StreamSplitPipeline traced() {
            return pipeline -> {
                pipeline.sink("upper", pipeline.<String>source("orders").map(String::toUpperCase));
                pipeline.sink(
                        "latest",
                        pipeline.<String>source("orders")
                                .map(order -> new Latest(order.substring(0, 1), order, TraceContext.current()))
                                .keyBy(Latest::customer)
                                .reduce((previous, next) -> next));
            };
        }
    }

    @Test
    void outputRecordsCarryTheirInputRecordsTraceContext() throws Exception {
        for (String topic : List.of("tc-orders", "tc-upper", "tc-latest")) {
            KAFKA.broker().createTopic(topic, 1);
        }
        String servers = KAFKA.bootstrapServers();
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(TracedApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=trace-context",
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + servers,
                        "streamsplit.flink.parallelism=1",
                        "streamsplit.kafka.sources.orders.topics=tc-orders",
                        "streamsplit.kafka.sources.orders.deserializer=text",
                        "streamsplit.kafka.sinks.upper.topic=tc-upper",
                        "streamsplit.kafka.sinks.upper.serializer=utf8",
                        "streamsplit.kafka.sinks.latest.topic=tc-latest",
                        "streamsplit.kafka.sinks.latest.serializer=latestWriter")
                .run()) {
            String first = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
            String second = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
            KafkaTopics.write(
                    servers,
                    List.of(
                            traced("a1", first, "vendor=1", "user=ann"),
                            traced("b1", second, null, null),
                            new ProducerRecord<>("tc-orders", "c1".getBytes(StandardCharsets.UTF_8))));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(KafkaTopics.values(servers, "tc-upper")).containsExactly("A1", "B1", "C1");
                assertThat(KafkaTopics.values(servers, "tc-latest")).containsExactly("a=a1", "b=b1", "c=c1");
            });
            Map<String, Map<String, String>> upper = traceHeaders(KafkaTopics.readAll(servers, "tc-upper"));
            assertThat(upper.get("A1"))
                    .isEqualTo(Map.of("traceparent", first, "tracestate", "vendor=1", "baggage", "user=ann"));
            assertThat(upper.get("B1")).isEqualTo(Map.of("traceparent", second));
            assertThat(upper.get("C1")).as("no context in, none out").isEmpty();
            Map<String, Map<String, String>> latest = traceHeaders(KafkaTopics.readAll(servers, "tc-latest"));
            assertThat(latest.get("a=a1"))
                    .as("past keyBy, from the TraceCarrier element")
                    .isEqualTo(Map.of("traceparent", first, "tracestate", "vendor=1", "baggage", "user=ann"));
            assertThat(latest.get("b=b1")).isEqualTo(Map.of("traceparent", second));
            assertThat(latest.get("c=c1")).isEmpty();
        }
    }

    private static ProducerRecord<byte[], byte[]> traced(
            String value, String traceparent, @Nullable String tracestate, @Nullable String baggage) {
        ProducerRecord<byte[], byte[]> record =
                new ProducerRecord<>("tc-orders", value.getBytes(StandardCharsets.UTF_8));
        record.headers().add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
        if (tracestate != null) {
            record.headers().add("tracestate", tracestate.getBytes(StandardCharsets.UTF_8));
        }
        if (baggage != null) {
            record.headers().add("baggage", baggage.getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    /** Value → its trace headers (name → text). */
    private static Map<String, Map<String, String>> traceHeaders(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, Map<String, String>> byValue = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            Map<String, String> headers = new TreeMap<>();
            for (Header header : record.headers()) {
                headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
            }
            byValue.put(new String(record.value(), StandardCharsets.UTF_8), headers);
        }
        return byValue;
    }
}
