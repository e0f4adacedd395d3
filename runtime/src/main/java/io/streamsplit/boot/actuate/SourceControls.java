package io.streamsplit.boot.actuate;

import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.connector.kafka.source.control.ControlTopicReader;
import io.streamsplit.connector.kafka.source.control.SourceControl;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

/**
 * The endpoint's side of a source's control topic: reads the command in force and writes the next
 * one, with the source's own connection and security settings. The source's enumerator picks it up
 * within a second (embedded or remote: the topic is the only channel).
 */
final class SourceControls {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Supplier<Map<String, StreamSplitKafkaSource<?>>> sources;

    SourceControls(Supplier<Map<String, StreamSplitKafkaSource<?>>> sources) {
        this.sources = sources;
    }

    /** Reads the control of {@code source} in force, applies {@code change} and writes the result. */
    SourceControl change(String source, UnaryOperator<SourceControl> change) throws Exception {
        StreamSplitKafkaSource<?> built = controlled(source);
        String topic = Objects.requireNonNull(built.controlTopic(), "controlled() refuses a source without one");
        Properties consumer = built.consumerProperties();
        SourceControl current;
        try (ControlTopicReader reader = new ControlTopicReader(
                topic, source, ControlTopicReader.consumerProperties(consumer, "streamsplit-actuator"), TIMEOUT)) {
            current = reader.poll();
        }
        SourceControl next = change.apply(current);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties(consumer))) {
            producer.send(new ProducerRecord<>(topic, source.getBytes(StandardCharsets.UTF_8), next.encode()))
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        return next;
    }

    private StreamSplitKafkaSource<?> controlled(String source) {
        Map<String, StreamSplitKafkaSource<?>> all = sources.get();
        StreamSplitKafkaSource<?> built = all.get(source);
        if (built == null) {
            throw new InvalidEndpointRequestException(
                    "No source named '" + source + "': use one of " + all.keySet(), "unknown source");
        }
        if (built.controlTopic() == null) {
            throw new InvalidEndpointRequestException(
                    "Source '" + source + "' takes no commands while running: set "
                            + KafkaSources.CONTROL_TOPIC
                            + " (e.g. my-app-control; created at startup) and restart the application (a table of"
                            + " CREATE TABLE ... WITH ('connector' = 'streamsplit-kafka') without the streamsplit.sql"
                            + " statements: 'scan.control-topic' in its WITH clause)",
                    "no control topic");
        }
        return built;
    }

    /** The source's connection and security settings, as producer settings: acknowledged by all replicas. */
    private static Properties producerProperties(Properties consumer) {
        Properties producer = KafkaClients.only(consumer, ProducerConfig.configNames());
        producer.put(ProducerConfig.CLIENT_ID_CONFIG, "streamsplit-actuator-control");
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        producer.remove(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG); // consumer interceptors, not producer ones
        return producer;
    }
}
