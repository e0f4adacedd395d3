package io.streamsplit.embedded.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class SecureBrokerIT {

    // a fatal broker fault (a bad listener setting) halts the JVM through Kafka's Exit; fail the test instead
    static {
        org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) -> {
            throw new IllegalStateException("Kafka exit " + code + ": " + message);
        });
        org.apache.kafka.common.utils.Exit.setHaltProcedure((code, message) -> {
            throw new IllegalStateException("Kafka halt " + code + ": " + message);
        });
    }

    @Test
    void saslSslWithScramAuthenticatesAuthorizesByAclAndRejectsAWrongPassword() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder()
                .security(BrokerSecurity.saslSsl().user("alice", "alice-secret").acls(true))
                .build()
                .start()) {
            broker.createTopic("orders", 1);
            Properties alice = broker.clientProperties("alice", "alice-secret", "SCRAM-SHA-512");
            assertThat(broker.security().certificatePem()).startsWith("-----BEGIN CERTIFICATE-----");

            // no ACL yet: authenticated, but not allowed to write
            assertThatThrownBy(() -> send(alice, "orders")).hasRootCauseInstanceOf(TopicAuthorizationException.class);
            broker.allow(
                    "User:alice",
                    AclOperation.WRITE,
                    new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL));
            send(alice, "orders");

            broker.allow(
                    "User:alice",
                    AclOperation.READ,
                    new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL));
            assertThat(readAll(alice, "orders")).containsExactly("hello");

            Properties wrong = broker.clientProperties("alice", "not-her-password", "SCRAM-SHA-512");
            try (Admin admin = Admin.create(wrong)) {
                assertThatThrownBy(() -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(SaslAuthenticationException.class);
            }
        }
    }

    @Test
    void saslPlaintextAndSslListenersServeClients() throws Exception {
        for (BrokerSecurity security :
                List.of(BrokerSecurity.saslPlaintext().user("bob", "bob-secret"), BrokerSecurity.ssl())) {
            try (EmbeddedKafkaBroker broker =
                    EmbeddedKafkaBroker.builder().security(security).build().start()) {
                broker.createTopic("t", 1);
                Properties client = broker.clientProperties("bob", "bob-secret", "PLAIN");
                assertThat(client.getProperty("security.protocol")).isEqualTo(security.protocol());
                send(client, "t");
                assertThat(readAll(client, "t")).containsExactly("hello");
            }
        }
    }

    private static void send(Properties client, String topic) throws Exception {
        Properties props = new Properties();
        props.putAll(client);
        props.put("max.block.ms", "20000");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, "hello".getBytes(StandardCharsets.UTF_8)))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> readAll(Properties client, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(client, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofSeconds(10));
            return java.util.stream.StreamSupport.stream(records.spliterator(), false)
                    .map(record -> new String(record.value(), StandardCharsets.UTF_8))
                    .toList();
        }
    }
}
