package io.streamsplit.boot.autoconfigure.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import io.streamsplit.boot.autoconfigure.kafka.embedded.EmbeddedKafkaDevBroker;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.embedded.kafka.Keytool;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslStoreBundle;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Where every source and sink finds Kafka: the {@link StreamSplitKafkaConnectionDetails} bean, whose
 * default takes Spring Boot's {@code KafkaConnectionDetails} whole (a {@code @ServiceConnection}
 * provides servers, security protocol and SSL bundle together).
 */
class StreamSplitKafkaConnectionDetailsTest {

    /** These contexts have no Kafka to talk to: the startup check (tested against a real broker elsewhere) is off. */
    private static final String NO_KAFKA_CHECK = "streamsplit.kafka.startup-check.mode=off";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues(NO_KAFKA_CHECK)
            .withConfiguration(AutoConfigurations.of(KafkaAutoConfiguration.class, StreamSplitAutoConfiguration.class));

    @Test
    void bootsConnectionDetailsGiveServersSecurityProtocolAndSslBundleTogether(@TempDir Path dir) throws Exception {
        SslBundle bundle = SslBundle.of(SslStoreBundle.of(null, null, trustStore(dir)));
        runner.withBean(KafkaConnectionDetails.class, () -> new KafkaConnectionDetails() {
                    @Override
                    public List<String> getBootstrapServers() {
                        return List.of("secure-container:9093");
                    }

                    @Override
                    public @Nullable String getSecurityProtocol() {
                        return "SASL_SSL";
                    }

                    @Override
                    public @Nullable SslBundle getSslBundle() {
                        return bundle;
                    }
                })
                .run(context -> {
                    assertThat(context.getBean(StreamSplitKafkaConnectionDetails.class)
                                    .getBootstrapServers())
                            .containsExactly("secure-container:9093");
                    KafkaClientProperties client = context.getBean(KafkaClientProperties.class);
                    assertThat(client.common(KafkaClients.Kind.CONSUMER))
                            .containsEntry("security.protocol", "SASL_SSL")
                            .containsEntry("ssl.truststore.type", "PEM");
                    assertThat(client.common(KafkaClients.Kind.CONSUMER).get("ssl.truststore.certificates"))
                            .startsWith("-----BEGIN CERTIFICATE-----");
                    assertThat(client.origin("security.protocol")).isEqualTo("Spring Boot's KafkaConnectionDetails");
                });
    }

    @Test
    void bootsOwnDefaultDetailsWithNothingConfiguredLeaveRoomForTheDevBroker() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(KafkaConnectionDetails.class).hasSingleBean(EmbeddedKafkaDevBroker.class);
            PropertiesStreamSplitKafkaConnectionDetails details =
                    context.getBean(PropertiesStreamSplitKafkaConnectionDetails.class);
            assertThat(details.bootstrapServersOrigin()).isEqualTo("the dev-mode broker");
            assertThat(context.getBean(EmbeddedKafkaDevBroker.class).isStarted())
                    .isFalse();
        });
    }

    @Test
    void springKafkaPropertiesReachTheSourcesThroughBootsDefaultDetails() {
        runner.withPropertyValues(
                        "spring.kafka.bootstrap-servers=boot-a:9092,boot-b:9092",
                        "spring.kafka.security.protocol=SASL_PLAINTEXT")
                .run(context -> {
                    assertThat(context.getBean(StreamSplitKafkaConnectionDetails.class)
                                    .getBootstrapServers())
                            .containsExactly("boot-a:9092", "boot-b:9092");
                    assertThat(context.getBean(KafkaClientProperties.class).common(KafkaClients.Kind.CONSUMER))
                            .containsEntry("security.protocol", "SASL_PLAINTEXT");
                });
    }

    @Test
    void anApplicationsOwnConnectionDetailsReplaceTheDefault() {
        runner.withBean(StreamSplitKafkaConnectionDetails.class, () -> () -> List.of("mine:9092"))
                .withPropertyValues(
                        "spring.kafka.bootstrap-servers=boot:9092", "streamsplit.kafka.bootstrap-servers=ignored:9092")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(PropertiesStreamSplitKafkaConnectionDetails.class);
                    assertThat(context.getBean(KafkaBootstrapServers.class)
                                    .resolve("streamsplit.kafka.sources.orders.bootstrap-servers", List.of()))
                            .isEqualTo("mine:9092");
                });
    }

    private static KeyStore trustStore(Path dir) throws Exception {
        Path store = dir.resolve("trust.p12");
        Keytool.selfSigned(store, "ca", "CN=test-ca", null, "secret");
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, "secret".toCharArray());
        }
        return keyStore;
    }
}
