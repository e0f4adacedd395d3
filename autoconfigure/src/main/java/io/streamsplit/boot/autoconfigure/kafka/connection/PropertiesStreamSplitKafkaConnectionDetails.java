package io.streamsplit.boot.autoconfigure.kafka.connection;

import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.env.Environment;

/**
 * The default {@link StreamSplitKafkaConnectionDetails}. First match wins, per value:
 *
 * <ul>
 *   <li>bootstrap servers: {@code streamsplit.kafka.bootstrap-servers}; Spring Boot's connection
 *       details when they are configured (a {@code @ServiceConnection}, a bean of the application, or
 *       {@code spring.kafka.bootstrap-servers}); {@code spring.kafka.bootstrap-servers} without
 *       spring-boot-kafka on the classpath; the dev-mode broker, started on first use;
 *   <li>security protocol: Boot's connection details, else {@code spring.kafka.security.protocol};
 *   <li>SSL bundle: {@code streamsplit.kafka.ssl-bundle}; Boot's connection details; else
 *       {@code spring.kafka.ssl.bundle}.
 * </ul>
 */
public final class PropertiesStreamSplitKafkaConnectionDetails implements StreamSplitKafkaConnectionDetails {

    private final List<String> bootstrapServers;
    private final @Nullable String sslBundleName;
    private final Environment environment;
    private final @Nullable BootConnection boot;
    private final @Nullable Supplier<String> devBroker;
    private final @Nullable String devBrokerOff;
    private final Supplier<@Nullable SslBundles> sslBundles;

    /** What Spring Boot's {@code KafkaConnectionDetails} say, when they are configured. */
    public record BootConnection(
            List<String> bootstrapServers,
            @Nullable String securityProtocol,
            @Nullable SslBundle sslBundle,
            String description) {}

    /**
     * @param bootstrapServers {@code streamsplit.kafka.bootstrap-servers}
     * @param sslBundleName {@code streamsplit.kafka.ssl-bundle}
     * @param boot Boot's connection details, {@code null} when absent or not configured
     * @param devBroker the dev-mode broker's servers (starts it), {@code null} without dev mode
     * @param devBrokerOff why the dev-mode broker, on the class path, does not stand in for Kafka; {@code null}
     *     when it does or is not there
     */
    public PropertiesStreamSplitKafkaConnectionDetails(
            List<String> bootstrapServers,
            @Nullable String sslBundleName,
            Environment environment,
            @Nullable BootConnection boot,
            @Nullable Supplier<String> devBroker,
            @Nullable String devBrokerOff,
            Supplier<@Nullable SslBundles> sslBundles) {
        this.devBrokerOff = devBrokerOff;
        this.bootstrapServers = List.copyOf(bootstrapServers);
        this.sslBundleName = sslBundleName;
        this.environment = environment;
        this.boot = boot;
        this.devBroker = devBroker;
        this.sslBundles = sslBundles;
    }

    @Override
    public List<String> getBootstrapServers() {
        if (!bootstrapServers.isEmpty()) {
            return bootstrapServers;
        }
        if (boot != null && !boot.bootstrapServers().isEmpty()) {
            return boot.bootstrapServers();
        }
        String fromBoot = environment.getProperty("spring.kafka.bootstrap-servers");
        if (fromBoot != null && !fromBoot.isBlank()) {
            return Arrays.stream(fromBoot.split(","))
                    .map(String::trim)
                    .filter(s -> !s.isEmpty())
                    .toList();
        }
        return devBroker != null ? List.of(devBroker.get().split(",")) : List.of();
    }

    /** Why the dev-mode broker on the class path does not stand in for Kafka, {@code null} when it does or is absent. */
    public @Nullable String devBrokerOff() {
        return devBrokerOff;
    }

    /** Whether the servers are the dev-mode broker's: nothing else says where Kafka is. */
    public boolean usesDevBroker() {
        return devBroker != null
                && bootstrapServers.isEmpty()
                && (boot == null || boot.bootstrapServers().isEmpty())
                && !environment.containsProperty("spring.kafka.bootstrap-servers");
    }

    /** Where {@link #getBootstrapServers()} comes from, for the startup log. */
    public String bootstrapServersOrigin() {
        if (!bootstrapServers.isEmpty()) {
            return "streamsplit.kafka.bootstrap-servers";
        }
        if (boot != null && !boot.bootstrapServers().isEmpty()) {
            return boot.description();
        }
        return environment.containsProperty("spring.kafka.bootstrap-servers")
                ? "spring.kafka.bootstrap-servers"
                : "the dev-mode broker";
    }

    @Override
    public @Nullable String getSecurityProtocol() {
        return boot != null ? boot.securityProtocol() : environment.getProperty("spring.kafka.security.protocol");
    }

    /** The property (or connection) that set the security protocol, for error messages. */
    String securityProtocolOrigin() {
        return boot != null ? boot.description() : "spring.kafka.security.protocol";
    }

    @Override
    public @Nullable SslBundle getSslBundle() {
        if (sslBundleName != null && !sslBundleName.isBlank()) {
            return bundle("streamsplit.kafka.ssl-bundle", sslBundleName);
        }
        if (boot != null && boot.sslBundle() != null) {
            return boot.sslBundle();
        }
        String springBundle = environment.getProperty("spring.kafka.ssl.bundle");
        return springBundle == null || springBundle.isBlank() ? null : bundle("spring.kafka.ssl.bundle", springBundle);
    }

    /** The property (or connection) that names the SSL bundle, for error messages. */
    String sslBundleOrigin() {
        if (sslBundleName != null && !sslBundleName.isBlank()) {
            return "streamsplit.kafka.ssl-bundle";
        }
        return boot != null && boot.sslBundle() != null ? boot.description() : "spring.kafka.ssl.bundle";
    }

    private SslBundle bundle(String property, String name) {
        return SslBundlePem.bundle(property, name, sslBundles.get());
    }
}
