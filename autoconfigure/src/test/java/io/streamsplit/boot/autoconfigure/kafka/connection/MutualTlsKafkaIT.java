package io.streamsplit.boot.autoconfigure.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.embedded.kafka.BrokerSecurity;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Mutual TLS: the broker requires a client certificate and authorizes its subject. The key pair and
 * the trust material come from one Spring Boot SSL bundle, travel to the job as PEM strings, and the
 * access check names the certificate's principal.
 */
class MutualTlsKafkaIT {

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedKafkaBroker.builder()
                .security(BrokerSecurity.ssl()
                        .requireClientCertificate("orders-app")
                        .acls(true))
                .build()
                .start();
        // what the replicas' election of every embedded application of this principal needs
        for (AclOperation operation : List.of(AclOperation.DESCRIBE, AclOperation.READ, AclOperation.CREATE)) {
            broker.allow(
                    "User:CN=orders-app",
                    operation,
                    new ResourcePattern(ResourceType.TOPIC, "streamsplit-replicas", PatternType.LITERAL));
        }
        broker.allow(
                "User:CN=orders-app",
                AclOperation.READ,
                new ResourcePattern(ResourceType.GROUP, "streamsplit-replicas-", PatternType.PREFIXED));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static String[] bundle(String... more) {
        BrokerSecurity tls = broker.security();
        List<String> properties = new java.util.ArrayList<>(List.of(
                "spring.ssl.bundle.jks.kafka.keystore.location=file:" + tls.clientKeyStore(),
                "spring.ssl.bundle.jks.kafka.keystore.password=" + tls.trustStorePassword(),
                "spring.ssl.bundle.jks.kafka.keystore.type=PKCS12",
                "spring.ssl.bundle.jks.kafka.truststore.location=file:" + tls.trustStore(),
                "spring.ssl.bundle.jks.kafka.truststore.password=" + tls.trustStorePassword(),
                "spring.ssl.bundle.jks.kafka.truststore.type=PKCS12",
                "streamsplit.kafka.ssl-bundle=kafka"));
        properties.addAll(List.of(more));
        return properties.toArray(String[]::new);
    }

    @Test
    void aPipelineAuthenticatesWithTheBundlesClientCertificate() throws Exception {
        broker.createTopic("mtls-in", 2);
        broker.createTopic("mtls-out", 1);
        for (var grant : List.of(
                new ResourcePattern(ResourceType.TOPIC, "mtls-in", PatternType.LITERAL),
                new ResourcePattern(ResourceType.GROUP, "mtls", PatternType.LITERAL))) {
            broker.allow("User:CN=orders-app", AclOperation.READ, grant);
        }
        broker.allow(
                "User:CN=orders-app",
                AclOperation.WRITE,
                new ResourcePattern(ResourceType.TOPIC, "mtls-out", PatternType.LITERAL));
        try (ConfigurableApplicationContext app = Words.start(broker.bootstrapServers(), "mtls", bundle())) {
            assertThat(app.getBean(KafkaClientProperties.class).common(KafkaClients.Kind.CONSUMER))
                    .containsEntry("security.protocol", "SSL")
                    .containsKeys("ssl.keystore.key", "ssl.keystore.certificate.chain", "ssl.truststore.certificates");
            KafkaTopics.write(broker.internalBootstrapServers(), "mtls-in", List.of("m", "t"));
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(broker.internalBootstrapServers(), "mtls-out"))
                            .containsExactlyInAnyOrder("M", "T"));
        }
    }

    /**
     * An ACL taken away while the job runs: the job fails and restarts from its last checkpoint until the topic
     * is readable again, health names the topic, the principal and the grant, and once it is granted again the
     * records written meanwhile come through (nothing skipped).
     */
    @Test
    void aReadAclRevokedWhileTheJobRunsIsNamedAndTheJobResumesWhenGrantedAgain() throws Exception {
        broker.createTopic("revoke-in", 1);
        broker.createTopic("revoke-out", 1);
        String principal = "User:CN=orders-app";
        ResourcePattern input = new ResourcePattern(ResourceType.TOPIC, "revoke-in", PatternType.LITERAL);
        broker.allow(principal, AclOperation.READ, input);
        broker.allow(
                principal, AclOperation.READ, new ResourcePattern(ResourceType.GROUP, "revoke", PatternType.LITERAL));
        broker.allow(
                principal,
                AclOperation.WRITE,
                new ResourcePattern(ResourceType.TOPIC, "revoke-out", PatternType.LITERAL));
        try (ConfigurableApplicationContext app = Words.start(
                broker.bootstrapServers(),
                "revoke",
                bundle("streamsplit.flink.restart.delay=500ms", "streamsplit.flink.restart.max-delay=2s"))) {
            KafkaTopics.write(broker.internalBootstrapServers(), "revoke-in", List.of("before"));
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(broker.internalBootstrapServers(), "revoke-out"))
                            .contains("BEFORE"));

            broker.revoke(principal, AclOperation.READ, input);
            KafkaTopics.write(broker.internalBootstrapServers(), "revoke-in", List.of("while", "revoked"));
            StreamSplitHealthIndicator health = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () -> assertThat(String.valueOf(health.health().getDetails()))
                                    .contains("Kafka denies User:CN=orders-app access to topic(s) revoke-in")
                                    .contains("--allow-principal User:CN=orders-app --operation Read"));

            broker.allow(principal, AclOperation.READ, input);
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(broker.internalBootstrapServers(), "revoke-out"))
                            .contains("BEFORE", "WHILE", "REVOKED"));
        }
    }

    @Test
    void aMissingAclNamesTheCertificatesPrincipal() {
        broker.createTopic("mtls-denied-in", 1);
        broker.createTopic("mtls-denied-out", 1);
        RuntimeException failure;
        try (ConfigurableApplicationContext app = Words.start(broker.bootstrapServers(), "mtls-denied", bundle())) {
            throw new AssertionError("started although the certificate's principal has no ACL");
        } catch (RuntimeException e) {
            failure = e;
        }
        FailureAnalysis report = FailureReports.analyze(failure);
        assertThat(report.getDescription())
                .contains("Kafka denies User:CN=orders-app DESCRIBE on topic 'mtls-denied-in'");
        assertThat(report.getAction()).contains("--allow-principal User:CN=orders-app");
    }
}
