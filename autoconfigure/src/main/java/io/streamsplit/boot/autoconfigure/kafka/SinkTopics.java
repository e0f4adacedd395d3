package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaBootstrapServers;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaSources;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchemaBuilder;
import org.apache.flink.connector.kafka.sink.TopicSelector;

/**
 * Where a YAML sink writes: its {@code topic} or {@code topic-selector} bean (one of them), and never, unless
 * the sink says so, into a topic one of the application's own sources reads on the same cluster.
 */
final class SinkTopics {

    private final StreamSplitKafkaProperties kafka;
    private final KafkaBootstrapServers bootstrapServers;
    private final UserBeans beans;

    SinkTopics(StreamSplitKafkaProperties kafka, KafkaBootstrapServers bootstrapServers, UserBeans beans) {
        this.kafka = kafka;
        this.bootstrapServers = bootstrapServers;
        this.beans = beans;
    }

    /**
     * A sink that writes into a topic one of the application's sources reads, on the same Kafka cluster, feeds
     * the job its own output: a loop that runs on by itself with health UP. Refused unless the sink says the
     * loop is meant ({@code allow-feedback-loop}).
     */
    private void refuseFeedbackLoop(KafkaSinkProperties sink, String p) {
        String topic = sink.getTopic();
        if (sink.isAllowFeedbackLoop() || topic == null) {
            return;
        }
        String sinkServers = bootstrapServers.resolve(p + "bootstrap-servers", sink.getBootstrapServers());
        kafka.getSources().forEach((name, source) -> {
            String pattern = source.getPattern();
            boolean reads = source.getTopics().contains(topic)
                    || (pattern != null && java.util.regex.Pattern.matches(pattern, topic));
            if (reads
                    && sinkServers.equals(bootstrapServers.resolve(
                            KafkaSources.prefix(name) + "bootstrap-servers", source.getBootstrapServers()))) {
                throw new InvalidStreamSplitConfigurationException(
                        p + "topic",
                        topic,
                        "the sink writes into topic '" + topic + "', which source '" + name + "' reads"
                                + (pattern != null ? " (pattern " + pattern + ")" : "")
                                + ": every record the job writes would come back as its input, a loop that runs on"
                                + " by itself",
                        "Write to another topic, or set " + p + "allow-feedback-loop=true if the loop is meant (a"
                                + " topic the job reads its own output back from).");
            }
        });
    }

    /**
     * Flink's builder allows exactly one of a topic and a topic selector: it rejects the second
     * ("Topic selector already set") and a missing one on build; this only says which properties.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    <T> void apply(KafkaRecordSerializationSchemaBuilder<T> builder, KafkaSinkProperties sink, String p) {
        if (sink.getTopic() != null && !sink.getTopic().isBlank()) {
            refuseFeedbackLoop(sink, p);
            builder.setTopic(sink.getTopic());
        }
        if (sink.getTopicSelector() != null) {
            UserBeans.Found selector =
                    beans.find(p + "topic-selector", sink.getTopicSelector(), "topic selector", TopicSelector.class);
            beans.requireShippable(p + "topic-selector", selector);
            try {
                builder.setTopicSelector((TopicSelector) selector.bean());
            } catch (IllegalStateException e) {
                throw new InvalidStreamSplitConfigurationException(
                        p + "topic",
                        sink.getTopic(),
                        "both a topic and a" + " topic selector ('" + sink.getTopicSelector() + "') are set ("
                                + e.getMessage() + ")",
                        "Keep one of them.",
                        e);
            }
        }
    }

    /** The schema {@code builder} holds; a sink without topic nor selector fails naming both properties. */
    static <T> KafkaRecordSerializationSchema<T> build(KafkaRecordSerializationSchemaBuilder<T> builder, String p) {
        try {
            return builder.build();
        } catch (IllegalStateException | NullPointerException e) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "topic",
                    null,
                    "the sink has no topic (" + e.getMessage() + ")",
                    "Set " + p + "topic, or " + p + "topic-selector to a TopicSelector bean.",
                    e);
        }
    }
}
