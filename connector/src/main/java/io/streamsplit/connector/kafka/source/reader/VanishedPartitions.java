package io.streamsplit.connector.kafka.source.reader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Assigned partitions Kafka no longer has: a topic deleted (or shrunk) while the reader reads it. The Kafka
 * consumer keeps fetching such a partition, gets an error back at once and fetches again inside the same poll —
 * thousands of fetches, and as many WARN lines from Kafka, a second — until someone unassigns it, and with
 * partition discovery off nobody does. After a poll that brought nothing, at most once a second, this looks the
 * assigned topics up in the consumer's metadata; the reader pauses what is gone and keeps it paused.
 */
@Internal
final class VanishedPartitions {

    private static final Logger LOG = LoggerFactory.getLogger(VanishedPartitions.class);
    private static final long CHECK_INTERVAL_MILLIS = 1_000;
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(1);

    private final String sourceName;
    private final Set<TopicPartition> vanished = new HashSet<>();
    private long lastCheck;

    VanishedPartitions(String sourceName) {
        this.sourceName = sourceName;
    }

    /**
     * The assigned partitions found gone since the last look (to pause), after a poll that brought nothing;
     * empty between looks and when the metadata cannot be read in time.
     */
    List<TopicPartition> afterEmptyPoll(KafkaConsumer<byte[], byte[]> kafka, Collection<TopicPartition> assigned) {
        long now = System.currentTimeMillis();
        if (now - lastCheck < CHECK_INTERVAL_MILLIS) {
            return List.of();
        }
        lastCheck = now;
        Map<String, List<TopicPartition>> byTopic = new LinkedHashMap<>();
        assigned.stream()
                .filter(tp -> !vanished.contains(tp))
                .forEach(tp -> byTopic.computeIfAbsent(tp.topic(), topic -> new ArrayList<>())
                        .add(tp));
        List<TopicPartition> gone = new ArrayList<>();
        for (Map.Entry<String, List<TopicPartition>> topic : byTopic.entrySet()) {
            List<PartitionInfo> partitions;
            try {
                partitions = kafka.partitionsFor(topic.getKey(), LOOKUP_TIMEOUT);
            } catch (TimeoutException | WakeupException e) {
                continue; // the broker is slow or the fetcher woken: the next look asks again
            }
            int count = partitions == null ? 0 : partitions.size();
            topic.getValue().stream().filter(tp -> tp.partition() >= count).forEach(gone::add);
        }
        if (!gone.isEmpty()) {
            vanished.addAll(gone);
            LOG.warn(
                    "Source {}: partitions {} no longer exist in Kafka (their topic was deleted, or has fewer"
                            + " partitions now); stopped fetching them. Partition discovery (a discovery interval)"
                            + " releases them and reads a topic created again under the name from its start; without"
                            + " it, a restart of the job lets go of them",
                    sourceName,
                    gone);
        }
        return gone;
    }

    /** Whether {@code partition} was found gone: it stays paused whatever else resumes. */
    boolean contains(TopicPartition partition) {
        return vanished.contains(partition);
    }

    /** Partitions no longer assigned (released by the enumerator) are no longer watched. */
    void forget(Collection<TopicPartition> released) {
        vanished.removeAll(released);
    }
}
