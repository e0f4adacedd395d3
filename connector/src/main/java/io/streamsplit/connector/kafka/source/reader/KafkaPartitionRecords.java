package io.streamsplit.connector.kafka.source.reader;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;

/**
 * One poll's records, grouped by split, handed from the fetcher thread to the reader in
 * {@link KafkaRecordRun runs}. Wraps the consumer's per-partition lists without copying; a limit
 * per split cuts records at or beyond a bounded split's stopping offset.
 */
@Internal
final class KafkaPartitionRecords implements RecordsWithSplitIds<KafkaRecordRun> {

    private final List<String> splitIds = new ArrayList<>();
    private final List<List<ConsumerRecord<byte[], byte[]>>> records = new ArrayList<>();
    private final List<Integer> limits = new ArrayList<>();
    private final Set<String> finishedSplits;
    private final KafkaRecordRun run = new KafkaRecordRun();

    private int splitIndex = -1;
    private int recordIndex;
    private @Nullable List<ConsumerRecord<byte[], byte[]>> current;
    private int currentLimit;

    KafkaPartitionRecords(Set<String> finishedSplits) {
        this.finishedSplits = finishedSplits;
    }

    void add(String splitId, List<ConsumerRecord<byte[], byte[]>> splitRecords, int limit) {
        splitIds.add(splitId);
        records.add(splitRecords);
        limits.add(limit);
    }

    boolean isEmpty() {
        return splitIds.isEmpty() && finishedSplits.isEmpty();
    }

    @Override
    public @Nullable String nextSplit() {
        splitIndex++;
        if (splitIndex >= splitIds.size()) {
            current = null;
            return null;
        }
        current = records.get(splitIndex);
        currentLimit = limits.get(splitIndex);
        recordIndex = 0;
        return splitIds.get(splitIndex);
    }

    @Override
    public @Nullable KafkaRecordRun nextRecordFromSplit() {
        if (current == null || recordIndex >= currentLimit) {
            return null;
        }
        recordIndex = run.cover(current, recordIndex, currentLimit);
        return run;
    }

    @Override
    public Set<String> finishedSplits() {
        return finishedSplits;
    }
}
