package io.streamsplit.connector.kafka.source.enumerator;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;

/**
 * Offsets looked up by topic name and partition number instead of by {@code TopicPartition}
 * hash (see {@link PartitionIndex} for why), built by one pass over a map's entries.
 */
@Internal
final class OffsetsByTopic {

    /** What {@link #get} answers for a partition without an offset; Kafka's offsets are never negative. */
    static final long NONE = Long.MIN_VALUE;

    private final Map<String, long[]> byTopic = new HashMap<>();

    OffsetsByTopic(Map<TopicPartition, Long> offsets) {
        Map<String, Integer> sizes = new HashMap<>();
        offsets.keySet().forEach(tp -> sizes.merge(tp.topic(), tp.partition() + 1, Math::max));
        sizes.forEach((topic, size) -> {
            long[] slots = new long[size];
            Arrays.fill(slots, NONE);
            byTopic.put(topic, slots);
        });
        offsets.forEach((tp, offset) -> Objects.requireNonNull(byTopic.get(tp.topic()))[tp.partition()] = offset);
    }

    /** The offset of {@code tp}, or {@link #NONE}. */
    long get(TopicPartition tp) {
        long[] slots = byTopic.get(tp.topic());
        return slots == null || tp.partition() < 0 || tp.partition() >= slots.length ? NONE : slots[tp.partition()];
    }
}
