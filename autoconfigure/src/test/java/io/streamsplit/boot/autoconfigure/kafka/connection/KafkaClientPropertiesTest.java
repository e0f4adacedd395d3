package io.streamsplit.boot.autoconfigure.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.embedded.kafka.Keytool;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Where the shared Kafka client settings come from, and in which order they win. */
class KafkaClientPropertiesTest {

    /** These contexts have no Kafka to talk to: the startup check (tested against a real broker elsewhere) is off. */
    private static final String NO_KAFKA_CHECK = "streamsplit.kafka.startup-check.mode=off";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues(NO_KAFKA_CHECK)
            .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, StreamSplitAutoConfiguration.class))
            .withPropertyValues("streamsplit.kafka.bootstrap-servers=b:1", "streamsplit.kafka.embedded.enabled=false");

    @Test
    void springKafkaSecuritySettingsAreInheritedAndStreamSplitsOwnWin() {
        runner.withPropertyValues(
                        "spring.kafka.security.protocol=SASL_PLAINTEXT",
                        "spring.kafka.properties.sasl.mechanism=PLAIN",
                        "spring.kafka.properties.sasl.jaas.config=spring-jaas",
                        "spring.kafka.properties.max.poll.records=7",
                        "streamsplit.kafka.properties.sasl.mechanism=SCRAM-SHA-512")
                .run(context -> {
                    KafkaClientProperties client = context.getBean(KafkaClientProperties.class);
                    assertThat(client.common(KafkaClients.Kind.CONSUMER))
                            .containsEntry("security.protocol", "SASL_PLAINTEXT")
                            .containsEntry("sasl.jaas.config", "spring-jaas")
                            .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                            .containsEntry("max.poll.records", "7");
                    assertThat(client.common(KafkaClients.Kind.PRODUCER))
                            .as("a producer is given only what a producer knows")
                            .containsEntry("sasl.jaas.config", "spring-jaas")
                            .doesNotContainKey("max.poll.records");
                    assertThat(client.origin("sasl.jaas.config")).isEqualTo("spring.kafka.properties.sasl.jaas.config");
                    assertThat(client.origin("sasl.mechanism"))
                            .isEqualTo("streamsplit.kafka.properties.sasl.mechanism");
                });
    }

    /**
     * Spring Kafka's client settings reach the clients they are for, below StreamSplit's own: consumer tuning the
     * sources' consumers, producer tuning the sinks' producers, admin settings the admin clients.
     */
    @Test
    void springKafkasConsumerProducerAndAdminSettingsReachTheirClientsBelowStreamSplitsOwn() {
        runner.withPropertyValues(
                        "spring.kafka.consumer.max-poll-records=42",
                        "spring.kafka.consumer.fetch-min-size=1KB",
                        "spring.kafka.consumer.fetch-max-wait=250ms",
                        "spring.kafka.consumer.isolation-level=read-uncommitted",
                        "spring.kafka.consumer.properties.receive.buffer.bytes=65536",
                        "spring.kafka.producer.acks=all",
                        "spring.kafka.producer.compression-type=lz4",
                        "spring.kafka.producer.batch-size=32KB",
                        "spring.kafka.producer.properties.linger.ms=7",
                        "spring.kafka.admin.properties.request.timeout.ms=9000",
                        "streamsplit.kafka.properties.linger.ms=5")
                .run(context -> {
                    KafkaClientProperties client = context.getBean(KafkaClientProperties.class);
                    assertThat(client.common(KafkaClients.Kind.CONSUMER))
                            .containsEntry("max.poll.records", "42")
                            .containsEntry("fetch.min.bytes", "1024")
                            .containsEntry("fetch.max.wait.ms", "250")
                            .containsEntry("isolation.level", "read_uncommitted")
                            .containsEntry("receive.buffer.bytes", "65536")
                            .doesNotContainKey("acks");
                    assertThat(client.common(KafkaClients.Kind.PRODUCER))
                            .containsEntry("acks", "all")
                            .containsEntry("compression.type", "lz4")
                            .containsEntry("batch.size", "32768")
                            .as("streamsplit.kafka.properties win")
                            .containsEntry("linger.ms", "5")
                            .doesNotContainKey("max.poll.records");
                    assertThat(client.common(KafkaClients.Kind.ADMIN)).containsEntry("request.timeout.ms", "9000");
                    assertThat(client.origin("max.poll.records")).isEqualTo("spring.kafka.consumer.max-poll-records");
                });
    }

    /** Spring Kafka's JAAS login (JVM-wide in Spring Kafka) becomes each client's sasl.jaas.config, which travels. */
    @Test
    void springKafkasJaasLoginBecomesTheClientsSaslJaasConfig() {
        runner.withPropertyValues(
                        "spring.kafka.jaas.enabled=true",
                        "spring.kafka.jaas.login-module=org.apache.kafka.common.security.plain.PlainLoginModule",
                        "spring.kafka.jaas.options.username=app",
                        "spring.kafka.jaas.options.password=s3cret")
                .run(context -> assertThat(context.getBean(KafkaClientProperties.class)
                                .common(KafkaClients.Kind.CONSUMER)
                                .get("sasl.jaas.config"))
                        .isEqualTo("org.apache.kafka.common.security.plain.PlainLoginModule required"
                                + " username=\"app\" password=\"s3cret\";"));
    }

    @Test
    void aBundleWithAKeyStoreTravelsAsPemKeyAndCertificateChain(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path store = dir.resolve("client.p12");
        Keytool.selfSigned(store, "client", "CN=orders-app", null, "store-secret");
        runner.withPropertyValues(
                        "spring.ssl.bundle.jks.client.keystore.location=file:" + store,
                        "spring.ssl.bundle.jks.client.keystore.password=store-secret",
                        "spring.ssl.bundle.jks.client.keystore.type=PKCS12",
                        "spring.ssl.bundle.jks.client.truststore.location=file:" + store,
                        "spring.ssl.bundle.jks.client.truststore.password=store-secret",
                        "spring.ssl.bundle.jks.client.truststore.type=PKCS12",
                        "streamsplit.kafka.ssl-bundle=client")
                .run(context -> {
                    java.util.Map<String, String> common =
                            context.getBean(KafkaClientProperties.class).common(KafkaClients.Kind.CONSUMER);
                    assertThat(common)
                            .containsEntry("security.protocol", "SSL")
                            .containsEntry("ssl.keystore.type", "PEM")
                            .containsEntry("ssl.truststore.type", "PEM");
                    assertThat(common.get("ssl.keystore.key")).startsWith("-----BEGIN PRIVATE KEY-----\n");
                    assertThat(common.get("ssl.keystore.certificate.chain"))
                            .startsWith("-----BEGIN CERTIFICATE-----\n");
                    assertThat(common.get("ssl.truststore.certificates")).startsWith("-----BEGIN CERTIFICATE-----\n");
                    // Kafka must be able to read it back: the PEM key parses as PKCS#8
                    String base64 = common.get("ssl.keystore.key").replaceAll("-----[A-Z ]+-----|\\s", "");
                    assertThat(java.security.KeyFactory.getInstance("RSA")
                                    .generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(
                                            java.util.Base64.getDecoder().decode(base64))))
                            .isNotNull();
                });
    }

    @Test
    void anUnknownSslBundleNamesThePropertyAndTheBundlesThatExist() {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withPropertyValues(
                        "streamsplit.kafka.ssl-bundle=kafka-tls",
                        "spring.ssl.bundle.pem.other.truststore.certificate=classpath:none.pem")
                .run(context -> analysis[0] = FailureReports.analyze(context.getStartupFailure()));
        assertThat(analysis[0].getDescription())
                .contains("streamsplit.kafka.ssl-bundle", "'kafka-tls'", "there is no SSL bundle named 'kafka-tls'");
        assertThat(analysis[0].getAction()).contains("[other]", "spring.ssl.bundle.pem.kafka-tls");
    }

    @Test
    void theAccessCheckNamesThePrincipalFromTheSaslLoginAndSkipsPlaintextClients() {
        java.util.Properties client = new java.util.Properties();
        assertThat(KafkaAccessCheck.secured(client)).isFalse();
        client.put("security.protocol", "SASL_SSL");
        client.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"orders-app\" password=\"x\";");
        assertThat(KafkaAccessCheck.secured(client)).isTrue();
        assertThat(KafkaAccessCheck.principal(client)).isEqualTo("User:orders-app");
        client.remove("sasl.jaas.config");
        client.put("ssl.keystore.key", "-----BEGIN PRIVATE KEY-----");
        assertThat(KafkaAccessCheck.principal(client)).isEqualTo("the principal of the client certificate");
    }

    @Test
    void aCheckingAdminClientGetsTheConnectionAndSecuritySettingsButNoConsumerTuning() {
        Properties consumer = new Properties();
        consumer.put("bootstrap.servers", "b:1");
        consumer.put("security.protocol", "SASL_SSL");
        consumer.put("sasl.jaas.config", "jaas");
        consumer.put("max.poll.records", "2000");
        consumer.put("client.id", "the-source");

        Properties admin = KafkaClients.checkingAdmin(consumer, "streamsplit-access-check", Duration.ofSeconds(7));

        assertThat(admin)
                .containsEntry("bootstrap.servers", "b:1")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.jaas.config", "jaas")
                .containsEntry("client.id", "streamsplit-access-check")
                .containsEntry("default.api.timeout.ms", 7000)
                .containsEntry("request.timeout.ms", 7000)
                // an admin client would warn about a setting it does not know
                .doesNotContainKey("max.poll.records");
        assertThat(KafkaClients.only(consumer, ProducerConfig.configNames()))
                .containsOnlyKeys("bootstrap.servers", "security.protocol", "sasl.jaas.config", "client.id");
    }
}
