package io.streamsplit.boot.autoconfigure.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.tracing.StreamSplitTracingAutoConfiguration;
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
 * past a {@code keyBy} through an element that is a {@link TraceCarrier}; and with Micrometer Tracing,
 * a span per record read and written in the producer's trace.
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

        /** OpenTelemetry's own test exporter: Boot's tracing auto-configuration sends every finished span to it. */
        @Bean
        InMemorySpanExporter spans() {
            return InMemorySpanExporter.create();
        }

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

    private static final String FIRST = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    private static final String SECOND = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    /** Not sampled upstream (flags 00). */
    private static final String UNSAMPLED = "00-5cf92f3577b34da6a3ce929d0e0e4736-11f067aa0ba902b7-00";

    /**
     * Without spans (an application without Micrometer Tracing; here its auto-configuration is left
     * out) the input's headers go out as they came.
     */
    @Test
    void outputRecordsCarryTheirInputRecordsTraceContext() throws Exception {
        String servers = runWithFourOrders(
                "tc", "spring.autoconfigure.exclude=" + StreamSplitTracingAutoConfiguration.class.getName());
        String first = FIRST;
        String second = SECOND;
        try {
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
            assertThat(upper.get("D1")).isEqualTo(Map.of("traceparent", UNSAMPLED));
            assertThat(latest.get("d=d1")).isEqualTo(Map.of("traceparent", UNSAMPLED));
        } finally {
            app.close();
        }
    }

    /**
     * With Micrometer Tracing (the OpenTelemetry bridge, spans kept by OpenTelemetry's in-memory
     * exporter): a receive span per input record, a child of the producer's span; a send span per
     * output record, a child of the receive span (also past the keyBy, through the TraceCarrier); the
     * output record carries the send span's context, in the producer's trace.
     */
    @Test
    void withMicrometerTracingEachRecordGetsAReceiveAndASendSpanInTheProducersTrace() throws Exception {
        String servers = runWithFourOrders("ts", "management.tracing.sampling.probability=1.0");
        try {
            InMemorySpanExporter spans = app.getBean(InMemorySpanExporter.class);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(spans.getFinishedSpanItems().stream()
                                    .filter(span -> span.getName().endsWith(" send"))
                                    .count())
                            .isEqualTo(4));
            List<SpanData> finished = spans.getFinishedSpanItems();
            for (String[] input : new String[][] {{FIRST, "A1", "a=a1"}, {SECOND, "B1", "b=b1"}}) {
                String traceId = input[0].split("-")[1];
                String producerSpan = input[0].split("-")[2];
                SpanData receive = finished.stream()
                        .filter(span -> span.getName().equals("orders receive")
                                && span.getTraceId().equals(traceId))
                        .findFirst()
                        .orElseThrow();
                assertThat(receive.getKind()).isEqualTo(SpanKind.CONSUMER);
                assertThat(receive.getParentSpanId()).isEqualTo(producerSpan);
                List<SpanData> sends = finished.stream()
                        .filter(span -> span.getName().endsWith(" send")
                                && span.getTraceId().equals(traceId))
                        .toList();
                assertThat(sends).extracting(SpanData::getName).containsExactlyInAnyOrder("upper send", "latest send");
                assertThat(sends).allSatisfy(send -> {
                    assertThat(send.getKind()).isEqualTo(SpanKind.PRODUCER);
                    assertThat(send.getParentSpanId()).isEqualTo(receive.getSpanId());
                });
                Map<String, Map<String, String>> upper = traceHeaders(KafkaTopics.readAll(servers, "ts-upper"));
                Map<String, Map<String, String>> latest = traceHeaders(KafkaTopics.readAll(servers, "ts-latest"));
                assertThat(upper.get(input[1]).get("traceparent"))
                        .isEqualTo("00-" + traceId + "-" + spanId(sends, "upper send") + "-01");
                assertThat(latest.get(input[2]).get("traceparent"))
                        .isEqualTo("00-" + traceId + "-" + spanId(sends, "latest send") + "-01");
            }
            assertThat(finished)
                    .as("no span for the record without a traceparent, nor for the one not sampled upstream")
                    .hasSize(6);
            assertThat(traceHeaders(KafkaTopics.readAll(servers, "ts-upper")).get("D1"))
                    .as("an unsampled context travels unchanged")
                    .isEqualTo(Map.of("traceparent", UNSAMPLED));
        } finally {
            app.close();
        }
    }

    private static String spanId(List<SpanData> spans, String name) {
        return spans.stream()
                .filter(span -> span.getName().equals(name))
                .findFirst()
                .orElseThrow()
                .getSpanId();
    }

    private ConfigurableApplicationContext app;

    /**
     * Starts the application on topics {@code <prefix>-*}, writes a1 and b1 with sampled trace headers, c1
     * without and d1 with an unsampled one, waits for the output.
     */
    private String runWithFourOrders(String prefix, String tracing) throws Exception {
        for (String topic : List.of(prefix + "-orders", prefix + "-upper", prefix + "-latest")) {
            KAFKA.broker().createTopic(topic, 1);
        }
        String servers = KAFKA.bootstrapServers();
        app = new SpringApplicationBuilder(TracedApplication.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=trace-context",
                        tracing,
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + servers,
                        "streamsplit.flink.parallelism=1",
                        "streamsplit.kafka.sources.orders.topics=" + prefix + "-orders",
                        "streamsplit.kafka.sources.orders.deserializer=text",
                        "streamsplit.kafka.sinks.upper.topic=" + prefix + "-upper",
                        "streamsplit.kafka.sinks.upper.serializer=utf8",
                        "streamsplit.kafka.sinks.latest.topic=" + prefix + "-latest",
                        "streamsplit.kafka.sinks.latest.serializer=latestWriter")
                .run();
        KafkaTopics.write(
                servers,
                List.of(
                        traced(prefix + "-orders", "a1", FIRST, "vendor=1", "user=ann"),
                        traced(prefix + "-orders", "b1", SECOND, null, null),
                        new ProducerRecord<>(prefix + "-orders", "c1".getBytes(StandardCharsets.UTF_8)),
                        traced(prefix + "-orders", "d1", UNSAMPLED, null, null)));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(KafkaTopics.values(servers, prefix + "-upper")).containsExactly("A1", "B1", "C1", "D1");
            assertThat(KafkaTopics.values(servers, prefix + "-latest")).containsExactly("a=a1", "b=b1", "c=c1", "d=d1");
        });
        return servers;
    }

    private static ProducerRecord<byte[], byte[]> traced(
            String topic, String value, String traceparent, @Nullable String tracestate, @Nullable String baggage) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, value.getBytes(StandardCharsets.UTF_8));
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
