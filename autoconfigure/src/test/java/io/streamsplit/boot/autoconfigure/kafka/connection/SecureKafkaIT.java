package io.streamsplit.boot.autoconfigure.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.KafkaSplitStates;
import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.embedded.kafka.BrokerSecurity;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Kafka cluster that requires SASL over TLS (SCRAM-SHA-512) and authorizes with ACLs: pipelines
 * read and write exactly-once with credentials from YAML or a Spring Boot SSL bundle; wrong
 * credentials and every missing permission fail with a message that names the principal, the
 * operation and the resource; no secret shows up in logs, health or the split endpoint.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecureKafkaIT {

    private static final String SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule required";
    private static final List<String> USERS = List.of("alice", "bob", "carol", "dave", "erin", "frank", "grace");

    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startSecuredBroker() {
        BrokerSecurity security = BrokerSecurity.saslSsl().acls(true);
        USERS.forEach(user -> security.user(user, user + "-secret"));
        broker = EmbeddedKafkaBroker.builder().security(security).build().start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void exactlyOnceOverSaslSslWithScramFromYamlAndNoSecretIsShown(CapturedOutput output) throws Exception {
        topicsAndFullAccess("alice", "eos");
        try (ConfigurableApplicationContext app = Words.start(
                broker.bootstrapServers(),
                "eos",
                withProperties(
                        yamlCredentials("alice", "alice-secret"),
                        exactlyOnce(),
                        "logging.level.org.apache.kafka.common.config=info"))) {
            KafkaTopics.write(broker.internalBootstrapServers(), "eos-in", List.of("a", "b", "c"));
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(broker.internalBootstrapServers(), "eos-out"))
                            .containsExactlyInAnyOrder("A", "B", "C"));
            String splits = JsonMapper.builder()
                    .build()
                    .writeValueAsString(app.getBean(KafkaSplitStates.class).read());
            String health =
                    app.getBean(StreamSplitHealthIndicator.class).health().toString();
            assertThat(splits).contains("eos-in");
            for (String shown : List.of(splits, health, output.getAll())) {
                assertThat(shown)
                        .doesNotContain("alice-secret")
                        .doesNotContain(broker.security().trustStorePassword());
            }
        }
        // Kafka's own config dump ran (at INFO) and hid the values
        assertThat(output.getAll()).contains("sasl.jaas.config = [hidden]");
    }

    @Test
    void exactlyOnceWithASpringBootSslBundle() throws Exception {
        topicsAndFullAccess("alice", "bundle");
        List<String> properties = new ArrayList<>(List.of(
                "spring.ssl.bundle.jks.kafka.truststore.location=file:"
                        + broker.security().trustStore(),
                "spring.ssl.bundle.jks.kafka.truststore.password="
                        + broker.security().trustStorePassword(),
                "spring.ssl.bundle.jks.kafka.truststore.type=PKCS12",
                "spring.kafka.ssl.bundle=kafka",
                "streamsplit.kafka.properties.sasl.mechanism=SCRAM-SHA-512",
                "streamsplit.kafka.properties.sasl.jaas.config=" + jaas("alice", "alice-secret")));
        properties.addAll(exactlyOnce());
        try (ConfigurableApplicationContext app =
                Words.start(broker.bootstrapServers(), "bundle", properties.toArray(String[]::new))) {
            // the bundle travels as PEM, and the protocol follows from it and the SASL settings
            assertThat(app.getBean(KafkaClientProperties.class).common(KafkaClients.Kind.CONSUMER))
                    .containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry("ssl.truststore.type", "PEM")
                    .doesNotContainKey("ssl.truststore.location");
            KafkaTopics.write(broker.internalBootstrapServers(), "bundle-in", List.of("x", "y"));
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(broker.internalBootstrapServers(), "bundle-out"))
                            .containsExactlyInAnyOrder("X", "Y"));
        }
    }

    @Test
    void thePlainMechanismWorksToo() throws Exception {
        topicsAndFullAccess("bob", "plain");
        List<String> properties = new ArrayList<>(yamlCredentials("bob", "bob-secret"));
        properties.replaceAll(p -> p.replace("SCRAM-SHA-512", "PLAIN")
                .replace(SCRAM, "org.apache.kafka.common.security.plain.PlainLoginModule required"));
        try (ConfigurableApplicationContext app =
                Words.start(broker.bootstrapServers(), "plain", properties.toArray(String[]::new))) {
            KafkaTopics.write(broker.internalBootstrapServers(), "plain-in", List.of("p"));
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(KafkaTopics.values(broker.internalBootstrapServers(), "plain-out"))
                            .containsExactly("P"));
        }
    }

    @Test
    void aTruststoreWithoutTheBrokersCertificateFailsTheHandshakeAtStartup() {
        List<String> properties = new ArrayList<>(yamlCredentials("alice", "alice-secret"));
        properties.removeIf(p -> p.contains("ssl.truststore"));
        // the JDK's public CAs do not include the broker's self-signed certificate
        properties.add("streamsplit.kafka.properties.ssl.truststore.location="
                + java.nio.file.Path.of(System.getProperty("java.home"), "lib", "security", "cacerts"));
        properties.add("streamsplit.kafka.properties.ssl.truststore.password=changeit");
        FailureAnalysis report = FailureReports.analyze(failureOf("tls", properties));
        assertThat(report.getDescription())
                .contains("the TLS handshake of source 'words' with " + broker.bootstrapServers() + " failed");
        assertThat(report.getAction()).contains("trust material");
    }

    @Test
    void aWrongPasswordFailsStartupFastWithoutShowingIt() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> Words.start(
                        broker.bootstrapServers(),
                        "wrong",
                        yamlCredentials("alice", "not-alices-password").toArray(String[]::new)))
                .rootCause()
                .satisfies(
                        root -> assertThat(root.getClass().getSimpleName()).isEqualTo("SaslAuthenticationException"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        Throwable failure = failureOf("wrong", yamlCredentials("alice", "not-alices-password"));
        String report = FailureReports.analyze(failure).getDescription();
        assertThat(report)
                .contains(
                        "streamsplit.kafka.properties.sasl.jaas.config",
                        "rejected the SASL SCRAM-SHA-512" + " credentials of User:alice")
                .doesNotContain("not-alices-password");
    }

    @Test
    void everyMissingPermissionNamesThePrincipalTheOperationAndTheResource() {
        // bob may see the input topic but not read it
        createTopics("bob");
        allow("bob", AclOperation.DESCRIBE, ResourceType.TOPIC, "bob-in");
        assertDenied(
                "bob",
                "streamsplit.kafka.sources.words.topics",
                "Kafka denies User:bob READ on topic 'bob-in'",
                "--allow-principal User:bob --operation Read --topic bob-in");
        // carol has no right on the topic at all: not even DESCRIBE, which discovery needs
        createTopics("carol");
        assertDenied(
                "carol",
                "streamsplit.kafka.sources.words.topics",
                "Kafka denies User:carol DESCRIBE on topic 'carol-in'",
                "--operation Describe --topic carol-in");
        // dave reads the topic but not the consumer group
        createTopics("dave");
        allow("dave", AclOperation.READ, ResourceType.TOPIC, "dave-in");
        assertDenied(
                "dave",
                "streamsplit.kafka.sources.words.group-id",
                "Kafka denies User:dave READ on group 'dave'",
                "--operation Read --group dave");
        // erin reads fine but may not write the sink's topic
        createTopics("erin");
        allow("erin", AclOperation.READ, ResourceType.TOPIC, "erin-in");
        allow("erin", AclOperation.READ, ResourceType.GROUP, "erin");
        allow("erin", AclOperation.DESCRIBE, ResourceType.TOPIC, "erin-out");
        assertDenied(
                "erin",
                "streamsplit.kafka.sinks.upper.topic",
                "Kafka denies User:erin WRITE on topic 'erin-out'",
                "--operation Write --topic erin-out");
    }

    @Test
    void credentialsThatMayNotUseTheElectionTopicFailStartupNamingItAndThePermission() {
        createTopics("grace");
        allow("grace", AclOperation.READ, ResourceType.TOPIC, "grace-in");
        allow("grace", AclOperation.READ, ResourceType.GROUP, "grace");
        allow("grace", AclOperation.WRITE, ResourceType.TOPIC, "grace-out");
        allow("grace", AclOperation.DESCRIBE, ResourceType.TOPIC, "grace-out");
        FailureAnalysis report = FailureReports.analyze(failureOf("grace", yamlCredentials("grace", "grace-secret")));
        assertThat(report.getDescription())
                .contains("streamsplit.flink.embedded.replicas.topic", "streamsplit-replicas", "may not use")
                .doesNotContain("grace-secret");
        assertThat(report.getAction())
                .contains("DESCRIBE and READ on topic 'streamsplit-replicas'", "READ on its election group");
    }

    @Test
    void aMissingTransactionalIdRightFailsTheJobWithWhatToGrant(CapturedOutput output) throws Exception {
        createTopics("frank");
        allow("frank", AclOperation.READ, ResourceType.TOPIC, "frank-in");
        allow("frank", AclOperation.READ, ResourceType.GROUP, "frank");
        allow("frank", AclOperation.WRITE, ResourceType.TOPIC, "frank-out");
        electionAccess("frank", "frank");
        try (ConfigurableApplicationContext app = Words.start(
                broker.bootstrapServers(),
                "frank",
                withProperties(
                        yamlCredentials("frank", "frank-secret"),
                        exactlyOnce(),
                        "streamsplit.flink.restart.strategy=none"))) {
            KafkaTopics.write(broker.internalBootstrapServers(), "frank-in", List.of("a"));
            await().atMost(Duration.ofSeconds(90))
                    .untilAsserted(() -> assertThat(output.getAll())
                            .contains("failed for good")
                            .contains("Kafka denies the exactly-once sink its transactional ids")
                            .contains("--transactional-id <prefix> --resource-pattern-type prefixed"));
        }
    }

    private void assertDenied(String user, String property, String problem, String grant) {
        FailureAnalysis report = FailureReports.analyze(failureOf(user, yamlCredentials(user, user + "-secret")));
        assertThat(report.getDescription()).contains(property, problem).doesNotContain(user + "-secret");
        assertThat(report.getAction()).contains(grant);
    }

    private static Throwable failureOf(String name, List<String> properties) {
        try (ConfigurableApplicationContext app =
                Words.start(broker.bootstrapServers(), name, properties.toArray(String[]::new))) {
            throw new AssertionError("application '" + name + "' started although Kafka should deny it");
        } catch (RuntimeException e) {
            return e;
        }
    }

    private static void topicsAndFullAccess(String user, String name) {
        createTopics(name);
        electionAccess(user, name);
        allow(user, AclOperation.READ, ResourceType.TOPIC, name + "-in");
        allow(user, AclOperation.READ, ResourceType.GROUP, name);
        allow(user, AclOperation.WRITE, ResourceType.TOPIC, name + "-out");
        allow(user, AclOperation.DESCRIBE, ResourceType.TOPIC, name + "-out");
        for (AclOperation operation : List.of(AclOperation.WRITE, AclOperation.DESCRIBE)) {
            broker.allow(
                    "User:" + user,
                    operation,
                    new ResourcePattern(ResourceType.TRANSACTIONAL_ID, name + "-upper", PatternType.PREFIXED));
        }
    }

    /** What the replicas' election needs: its topic (created when missing) and the job's election group. */
    private static void electionAccess(String user, String name) {
        for (AclOperation operation : List.of(AclOperation.DESCRIBE, AclOperation.READ, AclOperation.CREATE)) {
            allow(user, operation, ResourceType.TOPIC, "streamsplit-replicas");
        }
        allow(user, AclOperation.READ, ResourceType.GROUP, "streamsplit-replicas-" + name);
    }

    private static void createTopics(String name) {
        broker.createTopic(name + "-in", 2);
        broker.createTopic(name + "-out", 1);
    }

    private static void allow(String user, AclOperation operation, ResourceType type, String name) {
        broker.allow("User:" + user, operation, new ResourcePattern(type, name, PatternType.LITERAL));
    }

    private static String jaas(String user, String password) {
        return SCRAM + " username=\"" + user + "\" password=\"" + password + "\";";
    }

    private static List<String> yamlCredentials(String user, String password) {
        return List.of(
                "streamsplit.kafka.properties.security.protocol=SASL_SSL",
                "streamsplit.kafka.properties.sasl.mechanism=SCRAM-SHA-512",
                "streamsplit.kafka.properties.sasl.jaas.config=" + jaas(user, password),
                "streamsplit.kafka.properties.ssl.truststore.location="
                        + broker.security().trustStore(),
                "streamsplit.kafka.properties.ssl.truststore.password="
                        + broker.security().trustStorePassword(),
                "streamsplit.kafka.properties.ssl.truststore.type=PKCS12");
    }

    private static List<String> exactlyOnce() {
        return List.of("streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once");
    }

    private static String[] withProperties(List<String> a, List<String> b, String... more) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }
}
