package io.streamsplit.connector.kafka.source.enumerator;

import java.util.AbstractSet;
import java.util.BitSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * A set of partitions kept as topic → partition numbers: one bit per partition, topics in the
 * order they were first added, partitions in ascending order within a topic.
 *
 * <p>Why not a {@code HashSet<TopicPartition>}: Kafka hashes a partition to
 * {@code 31 · (31 + partition) + topic.hashCode()}, and the hashes of topic names that differ in
 * their last characters ({@code orders-0001}, {@code orders-0002}, …) differ by small multiples of
 * 31 too, so partition 1 of one topic and partition 0 of its neighbour share a hash. With
 * 1,000,000 partitions in topics of 100, a hash set puts dozens of partitions on each hash and
 * spends most of its time walking them; here a lookup is one topic name and one bit, and set
 * operations between two indexes work topic by topic.
 *
 * <pre>{@code
 * PartitionIndex added = new PartitionIndex(discovered);
 * added.removeAll(assigned); // topic by topic when assigned is an index too
 * }</pre>
 */
@Internal
public final class PartitionIndex extends AbstractSet<TopicPartition> {

    private final Map<String, BitSet> topics = new LinkedHashMap<>();
    private int size;

    public PartitionIndex() {}

    public PartitionIndex(Collection<? extends TopicPartition> partitions) {
        addAll(partitions);
    }

    /** {@code partitions} itself when it is an index already, else an index of them. */
    public static PartitionIndex of(Collection<? extends TopicPartition> partitions) {
        return partitions instanceof PartitionIndex index ? index : new PartitionIndex(partitions);
    }

    /** Adds partitions {@code 0} to {@code count - 1} of {@code topic}. */
    public void addTopic(String topic, int count) {
        BitSet bits = topics.computeIfAbsent(topic, t -> new BitSet(count));
        int before = bits.cardinality();
        bits.set(0, count);
        size += bits.cardinality() - before;
    }

    /** Whether any partition of {@code topic} is in the set. */
    public boolean containsTopic(String topic) {
        BitSet bits = topics.get(topic);
        return bits != null && !bits.isEmpty();
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean contains(@Nullable Object o) {
        return topicHolding(o) != null;
    }

    /** The partitions of {@code o}'s topic when {@code o} is a partition in this set, else {@code null}. */
    private @Nullable BitSet topicHolding(@Nullable Object o) {
        if (!(o instanceof TopicPartition tp) || tp.partition() < 0) {
            return null;
        }
        BitSet bits = topics.get(tp.topic());
        return bits != null && bits.get(tp.partition()) ? bits : null;
    }

    @Override
    public boolean add(TopicPartition tp) {
        if (tp.partition() < 0) {
            throw new IllegalArgumentException("Partition " + tp + " has a negative number; Kafka numbers them from 0");
        }
        BitSet bits = topics.computeIfAbsent(tp.topic(), t -> new BitSet());
        if (bits.get(tp.partition())) {
            return false;
        }
        bits.set(tp.partition());
        size++;
        return true;
    }

    @Override
    public boolean remove(@Nullable Object o) {
        BitSet bits = topicHolding(o);
        if (bits == null) {
            return false;
        }
        TopicPartition tp = (TopicPartition) Objects.requireNonNull(o);
        bits.clear(tp.partition());
        size--;
        if (bits.isEmpty()) {
            topics.remove(tp.topic());
        }
        return true;
    }

    @Override
    public boolean addAll(Collection<? extends TopicPartition> partitions) {
        if (!(partitions instanceof PartitionIndex other)) {
            return super.addAll(partitions);
        }
        int before = size;
        other.topics.forEach((topic, bits) -> {
            BitSet mine = topics.computeIfAbsent(topic, t -> new BitSet());
            int had = mine.cardinality();
            mine.or(bits);
            size += mine.cardinality() - had;
        });
        return size != before;
    }

    @Override
    public boolean removeAll(Collection<?> partitions) {
        if (!(partitions instanceof PartitionIndex other)) {
            boolean changed = false;
            for (Object partition : partitions) {
                changed |= remove(partition);
            }
            return changed;
        }
        return combine(other, false, BitSet::andNot);
    }

    @Override
    public boolean retainAll(Collection<?> partitions) {
        PartitionIndex other = partitions instanceof PartitionIndex index ? index : null;
        if (other == null) {
            return super.retainAll(partitions);
        }
        return combine(other, true, BitSet::and);
    }

    /**
     * Applies {@code operation} to each of this set's topics with {@code other}'s partitions of the same topic;
     * a topic {@code other} does not have is dropped when {@code dropMissing}, else left alone. Topics left empty
     * go. Returns whether this set changed.
     */
    private boolean combine(PartitionIndex other, boolean dropMissing, BiConsumer<BitSet, BitSet> operation) {
        int before = size;
        for (Iterator<Map.Entry<String, BitSet>> it = topics.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, BitSet> topic = it.next();
            BitSet mine = topic.getValue();
            BitSet theirs = other.topics.get(topic.getKey());
            size -= mine.cardinality();
            if (theirs != null) {
                operation.accept(mine, theirs);
            } else if (dropMissing) {
                mine.clear();
            }
            size += mine.cardinality();
            if (mine.isEmpty()) {
                it.remove();
            }
        }
        return size != before;
    }

    @Override
    public void clear() {
        topics.clear();
        size = 0;
    }

    @Override
    public Iterator<TopicPartition> iterator() {
        return new Iterator<>() {
            private final Iterator<Map.Entry<String, BitSet>> topicIterator =
                    topics.entrySet().iterator();
            private Map.@Nullable Entry<String, BitSet> topic;
            private int next = -1;
            private @Nullable BitSet lastBits;
            private int last = -1;
            private boolean removed;

            @Override
            public boolean hasNext() {
                while (topic == null || next < 0) {
                    if (!topicIterator.hasNext()) {
                        if (removed) { // topics emptied through this iterator leave the map once it is done
                            topics.values().removeIf(BitSet::isEmpty);
                            removed = false;
                        }
                        return false;
                    }
                    topic = topicIterator.next();
                    next = topic.getValue().nextSetBit(0);
                }
                return true;
            }

            @Override
            public TopicPartition next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Map.Entry<String, BitSet> current = Objects.requireNonNull(topic);
                lastBits = current.getValue();
                last = next;
                next = current.getValue().nextSetBit(next + 1);
                return new TopicPartition(current.getKey(), last);
            }

            @Override
            public void remove() {
                if (lastBits == null || last < 0) {
                    throw new IllegalStateException("next() was not called");
                }
                lastBits.clear(last);
                size--;
                last = -1;
                removed = true;
            }
        };
    }
}
