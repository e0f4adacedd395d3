package io.streamsplit.embedded.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaBrokerIT {

    @Test
    void transactionalProducerCommitsOnSingleNodeAndReadCommittedConsumerSeesRecords() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            broker.createTopic("tx", 2);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(broker, "tx-1"))) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("tx", 0, "k", "committed"));
                producer.commitTransaction();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("tx", 1, "k", "aborted"));
                producer.abortTransaction();
            }
            assertThat(readAll(broker, "tx", 1)).containsExactly("committed");
        }
    }

    @Test
    void restartKeepsPortAndDataAndCloseDeletesTempLogDir() throws Exception {
        Path logDir;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            logDir = broker.logDir();
            broker.createTopic("durable", 1);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps(broker, null))) {
                producer.send(new ProducerRecord<>("durable", "a")).get();
            }
            String before = broker.bootstrapServers();
            broker.stop();
            assertThat(broker.isRunning()).isFalse();
            broker.start();
            assertThat(broker.bootstrapServers()).isEqualTo(before);
            assertThat(readAll(broker, "durable", 1)).containsExactly("a");
        }
        assertThat(Files.exists(logDir)).isFalse();
    }

    @Test
    void topicHelpersCreateIdempotentlyGrowAndDelete() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start();
                Admin admin = Admin.create(broker.clientProperties())) {
            broker.createTopic("grow", 1);
            broker.createTopic("grow", 1);
            broker.addPartitions("grow", 3);
            assertThat(admin.describeTopics(List.of("grow"))
                            .allTopicNames()
                            .get()
                            .get("grow")
                            .partitions())
                    .hasSize(3);
            broker.deleteTopic("grow");
            assertThat(admin.listTopics().names().get()).doesNotContain("grow");
        }
    }

    @Test
    void bootstrapServersBeforeStartIsAClearError() {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build();
        assertThatThrownBy(broker::bootstrapServers).hasMessageContaining("call start() first");
        assertThatThrownBy(() -> EmbeddedKafkaBroker.builder().port(70000)).hasMessageContaining("port is 70000");
    }

    /**
     * Ports are probed free and bound later by Kafka: another process may take one in between (seen in CI
     * with brokers and Flink clusters starting side by side). The broker starts again on new ports.
     */
    @Test
    void aPortTakenBetweenTheProbeAndTheBindIsReplaced() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("localhost"))) {
            AtomicInteger probes = new AtomicInteger();
            EmbeddedKafkaBroker.Builder builder = EmbeddedKafkaBroker.builder()
                    .ports(() -> probes.getAndIncrement() == 0 ? taken.getLocalPort() : BrokerSupport.freePort());
            try (EmbeddedKafkaBroker broker = builder.build().start()) {
                assertThat(broker.port()).isNotEqualTo(taken.getLocalPort());
                assertThat(probes.get()).as("a second pair of ports was probed").isEqualTo(4);
                broker.createTopic("after-retry", 1);
                try (Admin admin = Admin.create(broker.clientProperties())) {
                    assertThat(admin.listTopics().names().get()).contains("after-retry");
                }
            }
        }
    }

    /**
     * The operating system may hand the port a probe just released to the next probe (seen in CI: "Each listener
     * must have a different port"): each listener still gets a port of its own.
     */
    @Test
    void aProbeHandedTheSamePortTwiceStillGivesEachListenerItsOwn() throws Exception {
        int same = BrokerSupport.freePort();
        AtomicInteger probes = new AtomicInteger();
        EmbeddedKafkaBroker.Builder builder = EmbeddedKafkaBroker.builder()
                .ports(() -> probes.getAndIncrement() < 2 ? same : BrokerSupport.freePort());
        try (EmbeddedKafkaBroker broker = builder.build().start()) {
            assertThat(broker.port()).isEqualTo(same);
            assertThat(probes.get()).as("the controller's port probed again").isEqualTo(3);
            broker.createTopic("own-ports", 1);
        }
    }

    static Properties producerProps(EmbeddedKafkaBroker broker, String transactionalId) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        if (transactionalId != null) {
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return props;
    }

    static List<String> readAll(EmbeddedKafkaBroker broker, String topic, int expected) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + topic);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30_000;
            while (values.size() < expected && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            // one more poll: anything beyond the expected count would show up here
            consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
        }
        return values;
    }
}
