package io.streamsplit.boot.test;

import io.streamsplit.embedded.kafka.CommittedRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;

/**
 * The tester's Kafka clients: one producer for the context, an admin for topic checks, and
 * read_committed snapshots of a topic (every record up to the end offsets as of the call).
 */
final class TopicIo implements AutoCloseable {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final Properties client;
    private @Nullable KafkaProducer<byte[], byte[]> producer;
    private @Nullable Admin admin;
    /** Topics seen to exist: a test deletes none, so each is looked up once, not on every send. */
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    TopicIo(Properties client) {
        this.client = client;
    }

    String bootstrapServers() {
        return client.getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
    }

    /** Sends and waits for the broker's acknowledgement; a send to a missing topic fails at once, naming the topics. */
    synchronized void send(ProducerRecord<byte[], byte[]> record) {
        requireTopic(record.topic());
        if (producer == null) {
            Properties props = new Properties();
            props.putAll(client);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
            producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        }
        try {
            producer.send(record).get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError(
                    "Could not send a record to topic '" + record.topic() + "' at " + bootstrapServers() + ": " + e, e);
        }
    }

    int partitions(String topic) {
        requireTopic(topic);
        try {
            return admin().describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic)
                    .partitions()
                    .size();
        } catch (Exception e) {
            throw new AssertionError("Could not describe topic '" + topic + "': " + e, e);
        }
    }

    void create(List<String> topics, int partitions) {
        if (topics.isEmpty()) {
            return;
        }
        List<NewTopic> wanted = topics.stream()
                .map(topic -> new NewTopic(topic, partitions, (short) 1))
                .toList();
        admin().createTopics(wanted).values().forEach((topic, future) -> {
            try {
                future.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("@StreamSplitTest could not create topic '" + topic + "': " + e, e);
                }
            }
        });
    }

    Set<String> topics() {
        try {
            return new TreeSet<>(admin().listTopics().names().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (Exception e) {
            throw new AssertionError("Could not list the topics at " + bootstrapServers() + ": " + e, e);
        }
    }

    void requireTopic(String topic) {
        if (known.contains(topic)) {
            return;
        }
        Set<String> topics = topics();
        if (topics.contains(topic)) {
            known.add(topic);
            return;
        }
        throw new AssertionError("Topic '" + topic + "' does not exist on the test's Kafka (" + bootstrapServers()
                + "); it has " + topics + ". @StreamSplitTest creates the topics named in"
                + " streamsplit.kafka.sources.*.topics, *.dead-letter-topic and sinks.*.topic; add others"
                + " with @StreamSplitTest(topics = \"" + topic + "\").");
    }

    /** Every record in {@code topic} that a read_committed consumer sees, up to the end offsets as of now. */
    List<ReceivedRecord> read(String topic) {
        requireTopic(topic);
        return CommittedRecords.read(client, topic, CALL_TIMEOUT).stream()
                .map(TopicIo::received)
                .toList();
    }

    private static ReceivedRecord received(ConsumerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8));
        }
        return new ReceivedRecord(
                record.topic(),
                record.partition(),
                record.offset(),
                Instant.ofEpochMilli(record.timestamp()),
                record.key(),
                record.value(),
                headers);
    }

    private synchronized Admin admin() {
        if (admin == null) {
            Properties props = new Properties();
            props.putAll(client);
            admin = Admin.create(props);
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
