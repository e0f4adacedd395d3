package io.streamsplit.connector.kafka.source.enumerator;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.ToIntFunction;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * The enumerator's splits that wait for their reader, by topic and partition number (for the
 * reason {@link PartitionIndex} gives: no hash of {@code TopicPartition} on the way).
 */
@Internal
final class PendingSplits {

    private final Map<String, @Nullable KafkaPartitionSplit[]> byTopic = new LinkedHashMap<>();
    private final PartitionIndex partitions = new PartitionIndex();

    /** Adds or replaces the split of its partition. */
    void put(KafkaPartitionSplit split) {
        TopicPartition tp = split.topicPartition();
        @Nullable KafkaPartitionSplit[] slots = byTopic.get(tp.topic());
        if (slots == null || slots.length <= tp.partition()) {
            slots = slots == null
                    ? new KafkaPartitionSplit[tp.partition() + 1]
                    : Arrays.copyOf(slots, Math.max(tp.partition() + 1, slots.length * 2));
            byTopic.put(tp.topic(), slots);
        }
        slots[tp.partition()] = split;
        partitions.add(tp);
    }

    /** Drops the split of {@code tp}, if one waits. */
    void remove(TopicPartition tp) {
        if (partitions.remove(tp)) {
            @Nullable KafkaPartitionSplit[] slots = byTopic.get(tp.topic());
            if (!partitions.containsTopic(tp.topic())) {
                byTopic.remove(tp.topic());
            } else if (slots != null) {
                slots[tp.partition()] = null;
            }
        }
    }

    /** The partitions with a waiting split; a live view, not to be changed by the caller. */
    PartitionIndex partitions() {
        return partitions;
    }

    int size() {
        return partitions.size();
    }

    /** The waiting splits, by topic and then partition. */
    List<KafkaPartitionSplit> all() {
        List<KafkaPartitionSplit> all = new ArrayList<>(size());
        byTopic.values().forEach(slots -> {
            for (KafkaPartitionSplit split : slots) {
                if (split != null) {
                    all.add(split);
                }
            }
        });
        return all;
    }

    /**
     * Takes out the splits whose reader ({@code owner}) is {@code ready}, grouped by reader; the
     * others keep waiting.
     */
    Map<Integer, List<KafkaPartitionSplit>> takeReady(ToIntFunction<TopicPartition> owner, IntPredicate ready) {
        Map<Integer, List<KafkaPartitionSplit>> taken = new HashMap<>();
        for (Iterator<Map.Entry<String, @Nullable KafkaPartitionSplit[]>> it =
                        byTopic.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<String, @Nullable KafkaPartitionSplit[]> topic = it.next();
            @Nullable KafkaPartitionSplit[] slots = topic.getValue();
            for (int p = 0; p < slots.length; p++) {
                KafkaPartitionSplit split = slots[p];
                if (split == null) {
                    continue;
                }
                int reader = owner.applyAsInt(split.topicPartition());
                if (ready.test(reader)) {
                    taken.computeIfAbsent(reader, r -> new ArrayList<>()).add(split);
                    slots[p] = null;
                    partitions.remove(split.topicPartition());
                }
            }
            if (!partitions.containsTopic(topic.getKey())) {
                it.remove();
            }
        }
        return taken;
    }
}
