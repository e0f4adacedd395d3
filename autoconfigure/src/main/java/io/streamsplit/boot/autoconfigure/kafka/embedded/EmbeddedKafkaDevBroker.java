package io.streamsplit.boot.autoconfigure.kafka.embedded;

import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import io.streamsplit.boot.config.PropertyChecks;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * Dev mode: a real in-JVM KRaft broker, started only when a source or sink needs Kafka and nothing
 * else says where Kafka is. It creates the topics named in {@code streamsplit.kafka.*} (sources,
 * sinks, dead-letter topics) and is deleted with the application context. Never meant for
 * production, and it says so in the log: unless {@code streamsplit.kafka.embedded.enabled} says
 * otherwise, it stands in for Kafka only in a development run (the application's classes loaded from
 * a directory: the IDE, {@code mvn spring-boot:run}, tests), never in a packaged one
 * ({@code java -jar}), where a missing bootstrap setting fails startup instead. Spring Boot's devtools
 * draw the same line.
 */
public class EmbeddedKafkaDevBroker implements DisposableBean {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaDevBroker.class);

    private final StreamSplitKafkaProperties kafka;
    private final boolean developmentRun;
    private @Nullable EmbeddedKafkaBroker broker;

    /**
     * @param developmentRun whether the application runs from its classes (a development run) rather than
     *     packaged: {@link #isDevelopmentRun}
     */
    public EmbeddedKafkaDevBroker(StreamSplitKafkaProperties kafka, boolean developmentRun) {
        this.kafka = kafka;
        this.developmentRun = developmentRun;
    }

    /**
     * Whether {@code application}, the application's main class, was loaded from a directory (the IDE,
     * {@code mvn spring-boot:run}, a test) rather than from a jar ({@code java -jar}, an extracted layout,
     * Flink's application mode).
     */
    public static boolean isDevelopmentRun(Class<?> application) {
        CodeSource source = application.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return false;
        }
        URL location = source.getLocation();
        if (!"file".equals(location.getProtocol())) {
            return false; // nested in a jar (Spring Boot's loader), or somewhere else: packaged
        }
        try {
            return Files.isDirectory(Path.of(location.toURI()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Whether the broker may stand in for Kafka: {@code embedded.enabled}, else only in a development run. */
    public boolean allowed() {
        Boolean enabled = kafka.getEmbedded().getEnabled();
        return enabled != null ? enabled : developmentRun;
    }

    /** Why it does not stand in for Kafka (for the message that asks for bootstrap servers); {@code null} if it does. */
    public @Nullable String whyNotStarted() {
        if (allowed()) {
            return null;
        }
        return Boolean.FALSE.equals(kafka.getEmbedded().getEnabled())
                ? "streamsplit.kafka.embedded.enabled is false"
                : "streamsplit-embedded-kafka is on the class path, but the application runs packaged (java -jar),"
                        + " where the in-JVM dev broker starts only with streamsplit.kafka.embedded.enabled=true";
    }

    /** Whether the broker has been started (only when something needed Kafka and found no other). */
    public synchronized boolean isStarted() {
        return broker != null;
    }

    /** The broker's bootstrap servers; starts it on first call. */
    public synchronized String bootstrapServers() {
        return broker().bootstrapServers();
    }

    /** The running broker, started and given its topics on first use. */
    public synchronized EmbeddedKafkaBroker broker() {
        EmbeddedKafkaBroker running = broker;
        if (running == null) {
            EmbeddedKafkaBroker.Builder builder = EmbeddedKafkaBroker.builder();
            if (kafka.getEmbedded().getPort() != null) {
                builder.port(kafka.getEmbedded().getPort());
            }
            EmbeddedKafkaBroker started = builder.build().start();
            int partitions = PropertyChecks.positive(
                    "streamsplit.kafka.embedded.partitions", kafka.getEmbedded().getPartitions());
            Set<String> topics = kafka.namedTopics();
            topics.forEach(topic -> started.createTopic(topic, partitions));
            broker = started;
            running = started;
            LOG.warn(
                    "\n********************************************************************************\n"
                            + "  DEV MODE: no Kafka configured, started an in-JVM Kafka broker at {}\n"
                            + "  Topics created ({} partitions each): {}\n"
                            + "  Data is deleted on shutdown. Set streamsplit.kafka.bootstrap-servers (or\n"
                            + "  spring.kafka.bootstrap-servers) to use a real cluster, or\n"
                            + "  streamsplit.kafka.embedded.enabled=false to turn dev mode off.\n"
                            + "********************************************************************************",
                    started.bootstrapServers(),
                    partitions,
                    topics);
        }
        return running;
    }

    @Override
    public synchronized void destroy() {
        if (broker != null) {
            broker.close();
            broker = null;
            LOG.info("Stopped the dev-mode Kafka broker");
        }
    }
}
