package io.streamsplit.connector.kafka.source.enumerator;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;

/**
 * Cluster metadata held in memory, for broker-free enumerator tests: topics with partition counts,
 * and per-partition earliest/latest/committed offsets that a test sets.
 */
public final class InMemoryKafkaMetadata implements KafkaMetadata {

    private final Map<String, Integer> topics = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> earliest = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> latest = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> committed = new ConcurrentHashMap<>();
    private volatile boolean failing;

    public InMemoryKafkaMetadata topic(String topic, int partitions) {
        topics.put(topic, partitions);
        return this;
    }

    public InMemoryKafkaMetadata deleteTopic(String topic) {
        topics.remove(topic);
        return this;
    }

    public InMemoryKafkaMetadata offsets(TopicPartition tp, long earliestOffset, long latestOffset) {
        earliest.put(tp, earliestOffset);
        latest.put(tp, latestOffset);
        return this;
    }

    public InMemoryKafkaMetadata committed(TopicPartition tp, long offset) {
        committed.put(tp, offset);
        return this;
    }

    public void failing(boolean failing) {
        this.failing = failing;
    }

    private void check() {
        if (failing) {
            throw new IllegalArgumentException("cluster unreachable (simulated)");
        }
    }

    @Override
    public Set<String> listTopics() {
        check();
        return Set.copyOf(topics.keySet());
    }

    @Override
    public Map<String, Integer> partitionCounts(Collection<String> names) {
        check();
        Map<String, Integer> counts = new HashMap<>();
        names.forEach(name -> {
            Integer count = topics.get(name);
            if (count != null) {
                counts.put(name, count);
            }
        });
        return counts;
    }

    @Override
    public Map<TopicPartition, Long> earliestOffsets(Collection<TopicPartition> partitions) {
        return lookup(earliest, partitions, 0L);
    }

    @Override
    public Map<TopicPartition, Long> latestOffsets(Collection<TopicPartition> partitions) {
        return lookup(latest, partitions, 0L);
    }

    @Override
    public Map<TopicPartition, Long> offsetsForTimestamp(Collection<TopicPartition> partitions, long timestampMillis) {
        check();
        return new HashMap<>();
    }

    @Override
    public Map<TopicPartition, Long> committedOffsets(String groupId, Collection<TopicPartition> partitions) {
        return lookup(committed, partitions, null);
    }

    private Map<TopicPartition, Long> lookup(
            Map<TopicPartition, Long> source, Collection<TopicPartition> partitions, Long defaultValue) {
        check();
        Map<TopicPartition, Long> result = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Long value = source.getOrDefault(tp, defaultValue);
            if (value != null) {
                result.put(tp, value);
            }
        }
        return result;
    }

    @Override
    public void close() {}
}
