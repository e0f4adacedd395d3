package io.streamsplit.boot.autoconfigure.kafka.embedded;

import io.streamsplit.boot.autoconfigure.diagnostics.PropertyChecks;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * Dev mode: a real in-JVM KRaft broker, started only when a source or sink needs Kafka and nothing
 * else says where Kafka is. It creates the topics named in {@code streamsplit.kafka.*} (sources,
 * sinks, dead-letter topics) and is deleted with the application context. Never meant for
 * production, and it says so in the log.
 */
public class EmbeddedKafkaDevBroker implements DisposableBean {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaDevBroker.class);

    private final StreamSplitKafkaProperties kafka;
    private EmbeddedKafkaBroker broker;

    public EmbeddedKafkaDevBroker(StreamSplitKafkaProperties kafka) {
        this.kafka = kafka;
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
        if (broker == null) {
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
        return broker;
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
