package io.streamsplit.connector.kafka.source.enumerator;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Which partitions a source reads: a list of topics, a topic name pattern, or an explicit set of
 * partitions. Exactly one per source. Evaluated at every partition discovery, so topics created
 * later (pattern) and partitions added later are picked up, and deleted ones are released.
 */
@Internal
public abstract class KafkaSubscription implements Serializable {

    private static final long serialVersionUID = 1L;

    private KafkaSubscription() {}

    /** All partitions of these topics; a topic that does not exist yet contributes none. */
    public static KafkaSubscription topics(List<String> topics) {
        if (topics == null || topics.isEmpty()) {
            throw new IllegalArgumentException("A topic subscription needs at least one topic name");
        }
        for (String topic : topics) {
            if (topic == null || topic.isBlank()) {
                throw new IllegalArgumentException("Topic names must not be blank, got " + topics);
            }
        }
        return new TopicList(new ArrayList<>(new TreeSet<>(topics)));
    }

    /** All partitions of every topic whose whole name matches {@code pattern}. */
    public static KafkaSubscription pattern(Pattern pattern) {
        if (pattern == null) {
            throw new IllegalArgumentException("A pattern subscription needs a pattern");
        }
        return new TopicPattern(pattern);
    }

    /** Exactly these partitions, as long as they exist. */
    public static KafkaSubscription partitions(Set<TopicPartition> partitions) {
        if (partitions == null || partitions.isEmpty()) {
            throw new IllegalArgumentException("A partition subscription needs at least one partition");
        }
        return new PartitionSet(new HashSet<>(partitions));
    }

    /** The partitions that currently exist and match this subscription. */
    public abstract Set<TopicPartition> discover(KafkaMetadata metadata) throws Exception;

    /** The topics named by this subscription (sorted); empty for a pattern. */
    public abstract List<String> topics();

    /** The topic pattern, or {@code null} when topics or partitions are named. */
    public @Nullable Pattern pattern() {
        return null;
    }

    static Set<TopicPartition> allPartitions(Map<String, Integer> partitionCounts) {
        PartitionIndex partitions = new PartitionIndex();
        partitionCounts.forEach(partitions::addTopic);
        return partitions;
    }

    private static final class TopicList extends KafkaSubscription {
        private static final long serialVersionUID = 1L;
        private final List<String> topics;

        TopicList(List<String> topics) {
            this.topics = topics;
        }

        @Override
        public Set<TopicPartition> discover(KafkaMetadata metadata) throws Exception {
            return allPartitions(metadata.partitionCounts(topics));
        }

        @Override
        public List<String> topics() {
            return List.copyOf(topics);
        }

        @Override
        public String toString() {
            return "topics " + topics;
        }
    }

    private static final class TopicPattern extends KafkaSubscription {
        private static final long serialVersionUID = 1L;
        private final Pattern pattern;

        TopicPattern(Pattern pattern) {
            this.pattern = pattern;
        }

        @Override
        public Set<TopicPartition> discover(KafkaMetadata metadata) throws Exception {
            Set<String> matching = metadata.listTopics().stream()
                    .filter(topic -> pattern.matcher(topic).matches())
                    .collect(Collectors.toSet());
            return matching.isEmpty() ? new PartitionIndex() : allPartitions(metadata.partitionCounts(matching));
        }

        @Override
        public List<String> topics() {
            return List.of();
        }

        @Override
        public Pattern pattern() {
            return pattern;
        }

        @Override
        public String toString() {
            return "topic pattern '" + pattern.pattern() + "'";
        }
    }

    private static final class PartitionSet extends KafkaSubscription {
        private static final long serialVersionUID = 1L;
        private final Set<TopicPartition> partitions;

        PartitionSet(Set<TopicPartition> partitions) {
            this.partitions = partitions;
        }

        @Override
        public Set<TopicPartition> discover(KafkaMetadata metadata) throws Exception {
            Set<String> topics = partitions.stream().map(TopicPartition::topic).collect(Collectors.toSet());
            Map<String, Integer> counts = metadata.partitionCounts(topics);
            return partitions.stream()
                    .filter(tp -> tp.partition() < counts.getOrDefault(tp.topic(), 0))
                    .collect(Collectors.toSet());
        }

        @Override
        public List<String> topics() {
            return List.copyOf(
                    new TreeSet<>(partitions.stream().map(TopicPartition::topic).toList()));
        }

        @Override
        public String toString() {
            return "partitions "
                    + new TreeSet<>(
                            partitions.stream().map(TopicPartition::toString).toList());
        }
    }
}
