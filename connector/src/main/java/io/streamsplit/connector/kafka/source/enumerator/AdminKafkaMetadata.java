package io.streamsplit.connector.kafka.source.enumerator;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.annotation.Internal;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** {@link KafkaMetadata} answered by Kafka's {@link Admin} client. */
@Internal
public final class AdminKafkaMetadata implements KafkaMetadata {

    private final Admin admin;
    private final IsolationLevel isolationLevel;
    private final Duration timeout;
    private final String bootstrapServers;

    public AdminKafkaMetadata(Properties adminProperties, IsolationLevel isolationLevel, Duration timeout) {
        this.admin = Admin.create(adminProperties);
        this.isolationLevel = isolationLevel;
        this.timeout = timeout;
        this.bootstrapServers = String.valueOf(adminProperties.get("bootstrap.servers"));
    }

    @Override
    public Set<String> listTopics() throws Exception {
        return get(admin.listTopics().names(), "list topics");
    }

    @Override
    public Map<String, Integer> partitionCounts(Collection<String> topics) throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        Map<String, KafkaFuture<TopicDescription>> futures =
                admin.describeTopics(topics).topicNameValues();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> entry : futures.entrySet()) {
            try {
                counts.put(
                        entry.getKey(),
                        get(entry.getValue(), "describe topic " + entry.getKey())
                                .partitions()
                                .size());
            } catch (KafkaMetadataException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        }
        return counts;
    }

    @Override
    public Map<TopicPartition, Long> earliestOffsets(Collection<TopicPartition> partitions) throws Exception {
        return listOffsets(partitions, tp -> OffsetSpec.earliest(), "earliest");
    }

    @Override
    public Map<TopicPartition, Long> latestOffsets(Collection<TopicPartition> partitions) throws Exception {
        return listOffsets(partitions, tp -> OffsetSpec.latest(), "latest");
    }

    @Override
    public Map<TopicPartition, Long> offsetsForTimestamp(Collection<TopicPartition> partitions, long timestampMillis)
            throws Exception {
        Map<TopicPartition, Long> offsets =
                listOffsets(partitions, tp -> OffsetSpec.forTimestamp(timestampMillis), "timestamp " + timestampMillis);
        offsets.values().removeIf(offset -> offset < 0);
        return offsets;
    }

    @Override
    public Map<TopicPartition, Long> committedOffsets(String groupId, Collection<TopicPartition> partitions)
            throws Exception {
        ListConsumerGroupOffsetsSpec spec = new ListConsumerGroupOffsetsSpec().topicPartitions(partitions);
        Map<TopicPartition, OffsetAndMetadata> committed = get(
                admin.listConsumerGroupOffsets(Map.of(groupId, spec)).partitionsToOffsetAndMetadata(groupId),
                "read committed offsets of consumer group " + groupId);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        committed.forEach((tp, om) -> {
            if (om != null && om.offset() >= 0) {
                offsets.put(tp, om.offset());
            }
        });
        return offsets;
    }

    private Map<TopicPartition, Long> listOffsets(
            Collection<TopicPartition> partitions, Function<TopicPartition, OffsetSpec> spec, String what)
            throws Exception {
        if (partitions.isEmpty()) {
            return new HashMap<>();
        }
        Map<TopicPartition, OffsetSpec> request =
                partitions.stream().collect(Collectors.toMap(Function.identity(), spec));
        ListOffsetsResult result = admin.listOffsets(request, new ListOffsetsOptions(isolationLevel));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> infos =
                get(result.all(), "list " + what + " offsets of " + describe(partitions));
        Map<TopicPartition, Long> offsets = new HashMap<>();
        infos.forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    private <T> T get(KafkaFuture<T> future, String what) throws InterruptedException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new KafkaMetadataException(
                    "Could not " + what + " on Kafka cluster " + bootstrapServers + ": " + cause.getMessage(), cause);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new KafkaMetadataException(
                    "Timed out after " + timeout.toMillis() + " ms trying to " + what + " on Kafka cluster "
                            + bootstrapServers + "; is the cluster reachable?",
                    e);
        }
    }

    private static String describe(Collection<TopicPartition> partitions) {
        List<String> names =
                partitions.stream().limit(5).map(TopicPartition::toString).toList();
        return partitions.size() <= 5
                ? names.toString()
                : names + " and " + (partitions.size() - 5) + " more partitions";
    }

    /**
     * Closes without waiting: the enumerator is going away, and a request still waiting for a broker
     * that does not answer would otherwise keep the client (and its connection warnings) alive for the
     * whole metadata timeout after the job stopped.
     */
    @Override
    public void close() {
        admin.close(Duration.ZERO);
    }

    /** A metadata request to the cluster failed; the message says which and against which cluster. */
    public static final class KafkaMetadataException extends RuntimeException {
        KafkaMetadataException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
