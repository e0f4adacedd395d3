package io.streamsplit.boot.actuate.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.support.KafkaHeaders;

/**
 * Dead letters as a Spring application's tools expect them, and their replay after a fix: on the
 * embedded broker and MiniCluster, a source with the dead-letter policy writes headers that match,
 * byte for byte, what spring-kafka's own {@link DeadLetterPublishingRecoverer} writes for the same
 * records; {@code POST /actuator/deadletters} refuses to replay while the deserializer still fails
 * on them, then — once it is fixed — sends each back to its partition exactly once, and a second
 * request replays nothing again.
 */
class DeadLetterReplayIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    /** Stands for the release that fixes the deserializer (the job runs in this JVM's MiniCluster). */
    static volatile boolean fixed;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class OrdersApplication {

        @Bean
        KafkaRecordDeserializer<String> orderDeserializer() {
            return record -> {
                String value = new String(record.value(), StandardCharsets.UTF_8);
                if (value.startsWith("bad:")) {
                    if (!fixed) {
                        throw new IllegalArgumentException("not an order: " + value);
                    }
                    return "fixed:" + value.substring(4);
                }
                return value;
            };
        }

        @Bean
        SerializationSchema<String> utf8() {
            return value -> value.getBytes(StandardCharsets.UTF_8);
        }

        @Bean
        StreamSplitPipeline copy() {
            return pipeline -> pipeline.sink("out", pipeline.<String>source("orders"));
        }
    }

    @Test
    void deadLettersCarrySpringKafkaHeadersAndReplayExactlyOnceAfterAFix() throws Exception {
        fixed = false;
        KAFKA.broker().createTopic("dl-orders", 2);
        KAFKA.broker().createTopic("dl-orders.DLT", 1);
        KAFKA.broker().createTopic("dl-out", 1);
        KAFKA.broker().createTopic("dl-spring.DLT", 1);
        String servers = KAFKA.bootstrapServers();
        String orders = "streamsplit.kafka.sources.orders.";
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(OrdersApplication.class)
                .properties(
                        "spring.application.name=dead-letter-replay",
                        "server.port=0",
                        "management.endpoints.web.exposure.include=deadletters",
                        "management.endpoint.deadletters.access=unrestricted",
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + servers,
                        "streamsplit.flink.parallelism=1",
                        "streamsplit.flink.checkpointing.interval=500ms",
                        orders + "topics=dl-orders",
                        orders + "deserializer=orderDeserializer",
                        orders + "bad-record-policy=dead-letter",
                        orders + "dead-letter-topic=dl-orders.DLT",
                        "streamsplit.kafka.sinks.out.topic=dl-out",
                        "streamsplit.kafka.sinks.out.serializer=utf8")
                .run()) {
            KafkaTopics.write(servers, List.of(order(0, "a"), order(0, "bad:b"), order(1, "c"), order(1, "bad:d")));
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(KafkaTopics.values(servers, "dl-out")).containsExactlyInAnyOrder("a", "c");
                assertThat(KafkaTopics.readAll(servers, "dl-orders.DLT")).hasSize(2);
            });

            assertSameHeadersAsSpringKafka(servers);

            DeadLettersEndpoint endpoint = app.getBean(DeadLettersEndpoint.class);
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            HttpResponse<String> refused = post(port, "{\"source\":\"orders\"}");
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body())
                    .contains("2 of 2 dead letters of source 'orders' still fail")
                    .containsPattern(
                            "first: topic dl-orders, partition [01], offset 1: java.lang.IllegalArgumentException:"
                                    + " not an order: bad:[bd]")
                    .contains("Deploy the fix first");
            assertThatThrownBy(() -> endpoint.replay("orders", null, "yesterday", null, null, null))
                    .isInstanceOf(InvalidEndpointRequestException.class)
                    .hasMessageContaining("since 'yesterday' is not an ISO-8601 instant");
            assertThat(KafkaTopics.readAll(servers, "dl-orders"))
                    .as("a refused replay writes nothing")
                    .hasSize(4);

            fixed = true;
            HttpResponse<String> replayed = post(port, "{\"source\":\"orders\"}");
            assertThat(replayed.statusCode()).isEqualTo(200);
            assertThat(replayed.body()).contains("\"replayed\":2").contains("\"alreadyReplayed\":0");
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(servers, "dl-out"))
                            .containsExactlyInAnyOrder("a", "c", "fixed:b", "fixed:d"));

            List<ConsumerRecord<byte[], byte[]>> input = KafkaTopics.readAll(servers, "dl-orders");
            assertThat(input).hasSize(6);
            for (String bad : List.of("bad:b", "bad:d")) {
                List<ConsumerRecord<byte[], byte[]>> copies = input.stream()
                        .filter(r -> new String(r.value(), StandardCharsets.UTF_8).equals(bad))
                        .toList();
                assertThat(copies).hasSize(2);
                assertThat(copies.get(1).partition())
                        .as("back to its partition")
                        .isEqualTo(copies.get(0).partition());
                assertThat(copies.get(1).timestamp()).isEqualTo(copies.get(0).timestamp());
                assertThat(Arrays.stream(copies.get(1).headers().toArray()).map(Header::key))
                        .as("the original header only, no dead-letter headers")
                        .containsExactly("trace");
            }

            Map<String, Object> again = endpoint.replay("orders", null, null, null, null, null);
            assertThat(again).containsEntry("replayed", 0L).containsEntry("alreadyReplayed", 2L);
            // a second copy, had one been written, would be read within this second
            await().during(Duration.ofSeconds(1))
                    .atMost(Duration.ofSeconds(10))
                    .untilAsserted(() ->
                            assertThat(KafkaTopics.values(servers, "dl-out")).hasSize(4));
            assertThat(KafkaTopics.readAll(servers, "dl-orders")).hasSize(6);
            assertThat(app.getBean(MeterRegistry.class)
                            .get("streamsplit.kafka.source.records.replayed")
                            .tag("source", "orders")
                            .counter()
                            .count())
                    .isEqualTo(2.0);
            @SuppressWarnings("unchecked")
            Map<String, Object> partition = (Map<String, Object>) ((Map<String, Object>)
                            ((Map<String, Object>) endpoint.deadLetters().get("orders")).get("partitions"))
                    .get("0");
            assertThat(partition).containsEntry("from", 0L).containsEntry("replayedUpTo", partition.get("to"));
        }
    }

    /**
     * spring-kafka's recoverer, given each original record and the exception our deserializer threw,
     * publishes its dead letter; every {@code kafka_dlt-*} header it writes is in ours with the same
     * bytes (the stack traces alike in their first line: they were thrown from different places).
     */
    private static void assertSameHeadersAsSpringKafka(String servers) throws Exception {
        List<ConsumerRecord<byte[], byte[]>> ours = KafkaTopics.readAll(servers, "dl-orders.DLT");
        List<ConsumerRecord<byte[], byte[]>> originals = KafkaTopics.readAll(servers, "dl-orders").stream()
                .filter(r -> new String(r.value(), StandardCharsets.UTF_8).startsWith("bad:"))
                .toList();
        DefaultKafkaProducerFactory<byte[], byte[]> producers = new DefaultKafkaProducerFactory<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
        try {
            DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(
                    new KafkaTemplate<>(producers), (record, e) -> new TopicPartition("dl-spring.DLT", 0));
            for (ConsumerRecord<byte[], byte[]> original : originals) {
                String value = new String(original.value(), StandardCharsets.UTF_8);
                recoverer.accept(original, new IllegalArgumentException("not an order: " + value));
            }
        } finally {
            producers.destroy();
        }
        List<ConsumerRecord<byte[], byte[]>> spring = KafkaTopics.readAll(servers, "dl-spring.DLT");
        assertThat(spring).hasSize(2);
        assertThat(ours).hasSize(2);
        for (int i = 0; i < 2; i++) {
            ConsumerRecord<byte[], byte[]> theirs = spring.get(i);
            ConsumerRecord<byte[], byte[]> mine = ours.stream()
                    .filter(r -> Arrays.equals(r.value(), theirs.value()))
                    .findFirst()
                    .orElseThrow();
            List<String> springHeaders = Arrays.stream(theirs.headers().toArray())
                    .map(Header::key)
                    .filter(key -> key.startsWith("kafka_dlt-"))
                    .toList();
            assertThat(springHeaders)
                    .contains(
                            KafkaHeaders.DLT_ORIGINAL_TOPIC,
                            KafkaHeaders.DLT_ORIGINAL_PARTITION,
                            KafkaHeaders.DLT_ORIGINAL_OFFSET,
                            KafkaHeaders.DLT_ORIGINAL_TIMESTAMP,
                            KafkaHeaders.DLT_ORIGINAL_TIMESTAMP_TYPE,
                            KafkaHeaders.DLT_EXCEPTION_FQCN,
                            KafkaHeaders.DLT_EXCEPTION_MESSAGE,
                            KafkaHeaders.DLT_EXCEPTION_STACKTRACE);
            for (String key : springHeaders) {
                byte[] expected = theirs.headers().lastHeader(key).value();
                Header actual = mine.headers().lastHeader(key);
                assertThat(actual).as(key).isNotNull();
                if (key.equals(KafkaHeaders.DLT_EXCEPTION_STACKTRACE)) {
                    assertThat(firstLine(actual.value())).isEqualTo(firstLine(expected));
                } else {
                    assertThat(actual.value()).as(key).isEqualTo(expected);
                }
            }
            assertThat(mine.headers().lastHeader("trace").value())
                    .isEqualTo(theirs.headers().lastHeader("trace").value());
        }
    }

    private static String firstLine(byte[] text) {
        return new String(text, StandardCharsets.UTF_8).lines().findFirst().orElse("");
    }

    private static ProducerRecord<byte[], byte[]> order(int partition, String value) {
        ProducerRecord<byte[], byte[]> record =
                new ProducerRecord<>("dl-orders", partition, null, null, value.getBytes(StandardCharsets.UTF_8));
        record.headers().add("trace", ("t-" + value).getBytes(StandardCharsets.UTF_8));
        return record;
    }

    private static HttpResponse<String> post(int port, String json) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/deadletters"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
