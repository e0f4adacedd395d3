package io.streamsplit.connector.kafka.source.reader;

import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.control.AdjustableRateLimiter;
import io.streamsplit.connector.kafka.source.control.SourceControl;
import io.streamsplit.connector.kafka.source.control.SourceControlEvent;
import io.streamsplit.connector.kafka.source.enumerator.KafkaMetadata;
import io.streamsplit.connector.kafka.source.enumerator.KafkaOffsetsResolver;
import io.streamsplit.connector.kafka.source.enumerator.PartitionsRemovedEvent;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplitState;
import io.streamsplit.connector.kafka.trace.RecordTracer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.flink.util.function.SerializableSupplier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source reader: {@link SingleThreadMultiplexSourceReaderBase} with one fetcher thread and
 * one Kafka consumer for all of this subtask's splits. Snapshots each split's next offset and
 * commits those offsets to the consumer group when, and only when, the checkpoint completes.
 */
@Internal
public final class KafkaSourceReader<T, OUT>
        extends SingleThreadMultiplexSourceReaderBase<
                KafkaRecordRun, OUT, KafkaPartitionSplit, KafkaPartitionSplitState> {

    /** Retriable commit failures (coordinator not known yet, rebalancing) stay at DEBUG until this many in a row */
    static final int COMMIT_FAILURES_BEFORE_WARNING = 3;
    /** and failing this long: at a checkpoint every 100 ms, three fail before a new group's coordinator loads. */
    static final Duration COMMIT_FAILURE_GRACE = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSourceReader.class);
    /** What one fetch of a reader may carry when the user has not sized it, shared among its partitions. */
    private static final int READER_FETCH_BUDGET = 8 << 20;
    /** Bounds of a partition's share: Kafka's default, and a size past which bigger fetches bought nothing. */
    private static final int MIN_PARTITION_FETCH = 1 << 20;

    private static final int MAX_PARTITION_FETCH = 8 << 20;

    /**
     * What a reader needs from its source.
     *
     * @param maxRecordsPerSecond the source's rate limit over all readers, or 0: unlimited
     * @param controlled whether the enumerator relays pause, resume and rate commands (a control
     *     topic); such a reader waits, paused, for the enumerator's first word
     * @param rackId run as the reader starts, on its TaskManager: the {@code client.rack} to fetch from, or none
     */
    public record Settings(
            String sourceName,
            Properties consumerProperties,
            boolean commitOffsets,
            BadRecordPolicy badRecordPolicy,
            double maxRecordsPerSecond,
            boolean controlled,
            @Nullable SerializableSupplier<String> rackId)
            implements java.io.Serializable {}

    /**
     * The {@code max.partition.fetch.bytes} a reader uses, unless the user set it, when it starts
     * with {@code partitions} partitions: 8 MB shared among them, between 1 MB and 8 MB. One partition
     * gets 8 MB (fewer round trips per record than Kafka's 1 MB: 1.2-1.3x its records/s on a single
     * partition), 8 or more get Kafka's 1 MB. Measured with the broker in its own JVM, a 32 MB share
     * held up to 1.6x the official source's peak RSS on 1 KB records with no throughput to show
     * for it; fetches that fill {@code fetch.max.bytes} (50 MB) were slower still (garbage collection).
     *
     * <pre>{@code
     * KafkaSourceReader.partitionFetchBytes(1);   // 8388608
     * KafkaSourceReader.partitionFetchBytes(2);   // 4194304
     * KafkaSourceReader.partitionFetchBytes(16);  // 1048576
     * }</pre>
     */
    public static int partitionFetchBytes(int partitions) {
        int share = READER_FETCH_BUDGET / Math.max(1, partitions);
        return Math.max(MIN_PARTITION_FETCH, Math.min(MAX_PARTITION_FETCH, share));
    }

    private final Settings settings;
    private final KafkaRecordEmitter<T> userEmitter;
    private final KafkaSourceReaderMetrics metrics;
    private final Map<TopicPartition, KafkaPartitionSplitState> ownSplits = new HashMap<>();
    private final Set<TopicPartition> removedPartitions = new HashSet<>();
    private final Map<TopicPartition, Long> finishedUncommitted = new HashMap<>();
    private final SortedMap<Long, Map<TopicPartition, Long>> offsetsToCommit = new TreeMap<>();
    /** Written by commit callbacks on the fetcher thread only. */
    private int commitFailuresInARow;

    private long commitFailingSince;

    private final @Nullable AdjustableRateLimiter<KafkaPartitionSplit> limiter;
    private final SerializableSupplier<KafkaMetadata> metadataFactory;

    private KafkaSourceReader(
            Settings settings,
            KafkaRecordEmitter<T> userEmitter,
            KafkaSourceFetcherManager fetchers,
            KafkaSourceRecordEmitter<T, OUT> recordEmitter,
            KafkaSourceReaderMetrics metrics,
            SourceReaderContext context,
            @Nullable AdjustableRateLimiter<KafkaPartitionSplit> limiter,
            SerializableSupplier<KafkaMetadata> metadataFactory) {
        super(
                fetchers,
                recordEmitter,
                null,
                context.getConfiguration(),
                context,
                // null when neither throttled nor controlled: SourceReaderBase then keeps its plain emit path
                limiter == null ? null : parallelism -> limiter);
        this.settings = settings;
        this.userEmitter = userEmitter;
        this.metrics = metrics;
        this.limiter = limiter;
        this.metadataFactory = metadataFactory;
        if (settings.controlled()) {
            fetchers.pauseSource(true); // until the enumerator says how the source is to run
        }
        // the fetchers hold whether the source is paused (also before the enumerator's first word)
        metrics.trackControl(() -> limiter == null ? 0 : limiter.rate(), fetchers::isSourcePaused);
    }

    /**
     * Creates the reader of subtask {@code context.getIndexOfSubtask()}.
     *
     * @param metadataFactory resolves the offset markers of splits restored from the official source
     */
    public static <T, OUT> KafkaSourceReader<T, OUT> create(
            Settings settings,
            KafkaRecordEmitter<T> userEmitter,
            ElementMapping<T, OUT> mapping,
            SourceReaderContext context,
            SerializableSupplier<KafkaMetadata> metadataFactory) {
        KafkaSourceReaderMetrics metrics = new KafkaSourceReaderMetrics(context.metricGroup());
        Properties consumerProperties =
                ReaderConsumerConfig.of(settings, context.getIndexOfSubtask(), context.currentParallelism());
        KafkaSourceFetcherManager fetchers = new KafkaSourceFetcherManager(
                removedReporter -> new KafkaPartitionSplitReader(
                        settings.sourceName(), consumerProperties, metrics, removedReporter),
                readerConfiguration(context.getConfiguration()));
        KafkaSourceRecordEmitter<T, OUT> recordEmitter = new KafkaSourceRecordEmitter<>(
                settings.sourceName(),
                userEmitter,
                mapping,
                settings.badRecordPolicy(),
                metrics,
                context.metricGroup().getIOMetricGroup().getNumRecordsInCounter(),
                RecordTracer.Registry.lookup(readerConfiguration(context.getConfiguration())
                        .get(ConfigOptions.key(RecordTracer.APPLICATION_ID)
                                .stringType()
                                .noDefaultValue())));
        AdjustableRateLimiter<KafkaPartitionSplit> limiter = settings.maxRecordsPerSecond() > 0 || settings.controlled()
                ? new AdjustableRateLimiter<>(settings.maxRecordsPerSecond() / context.currentParallelism())
                : null;
        return new KafkaSourceReader<>(
                settings, userEmitter, fetchers, recordEmitter, metrics, context, limiter, metadataFactory);
    }

    /** Runs the way the operator said: paused or reading, at this reader's share of the rate in force. */
    private void apply(SourceControl next) {
        ((KafkaSourceFetcherManager) splitFetcherManager).pauseSource(next.paused());
        if (limiter != null) {
            limiter.setRate(next.effectiveRate(settings.maxRecordsPerSecond()) / context.currentParallelism());
        }
        LOG.debug("Source {}: reader {} now {}", settings.sourceName(), context.getIndexOfSubtask(), next);
    }

    /**
     * While the reader waits for its next permit, Flink's {@code SourceReaderBase} answers
     * MORE_AVAILABLE and is available at once, so the task thread would call this in a loop until
     * the permit is there: 1.35 CPU seconds per second for a source throttled to 100 records/s at
     * p=2 (ThrottleBenchmark). Here it answers NOTHING_AVAILABLE and is available when the permit is.
     */
    @Override
    public InputStatus pollNext(ReaderOutput<OUT> output) throws Exception {
        if (limiter != null && !limiter.pending().isDone()) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        return super.pollNext(output);
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (limiter != null) {
            CompletableFuture<Void> permit = limiter.pending();
            if (!permit.isDone()) {
                return permit; // completes when the permit is due, or at once when the rate changes
            }
        }
        return super.isAvailable();
    }

    private static Configuration readerConfiguration(Configuration taskConfiguration) {
        return taskConfiguration == null ? new Configuration() : taskConfiguration;
    }

    @Override
    public void start() {
        try {
            userEmitter.open(new DeserializationSchema.InitializationContext() {
                @Override
                public MetricGroup getMetricGroup() {
                    return context.metricGroup().addGroup("deserializer");
                }

                @Override
                public UserCodeClassLoader getUserCodeClassLoader() {
                    return context.getUserCodeClassLoader();
                }
            });
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Source " + settings.sourceName() + ": the record emitter/deserializer" + " failed to open: "
                            + e.getMessage(),
                    e);
        }
        super.start();
    }

    /**
     * Splits restored from a savepoint of Flink's official {@code KafkaSource} may carry its offset
     * markers (earliest, latest, committed): they are resolved here, before the split state exists,
     * so that snapshots, commits and metrics only ever see offsets.
     */
    @Override
    public void addSplits(List<KafkaPartitionSplit> splits) {
        if (splits.stream().noneMatch(KafkaPartitionSplit::hasOffsetMarkers)) {
            super.addSplits(splits);
            return;
        }
        List<KafkaPartitionSplit> resolved;
        try (KafkaMetadata metadata = metadataFactory.get()) {
            resolved = KafkaOffsetsResolver.resolveMarkers(
                    splits, metadata, settings.consumerProperties().getProperty("group.id"));
        } catch (Exception e) {
            throw new FlinkRuntimeException(
                    "Source " + settings.sourceName() + ": could not resolve the offsets of restored splits "
                            + splits.stream()
                                    .filter(KafkaPartitionSplit::hasOffsetMarkers)
                                    .toList() + ": "
                            + e.getMessage(),
                    e);
        }
        LOG.info(
                "Source {}: reader {} resolved the offset markers of restored splits: {}",
                settings.sourceName(),
                context.getIndexOfSubtask(),
                resolved.stream()
                        .filter(split -> !splits.contains(split))
                        .map(split -> split.splitId() + "@" + split.startingOffset())
                        .toList());
        super.addSplits(resolved);
    }

    @Override
    protected KafkaPartitionSplitState initializedState(KafkaPartitionSplit split) {
        KafkaPartitionSplitState state = new KafkaPartitionSplitState(split);
        ownSplits.put(split.topicPartition(), state);
        removedPartitions.remove(split.topicPartition());
        metrics.track(state);
        return state;
    }

    @Override
    protected KafkaPartitionSplit toSplitType(String splitId, KafkaPartitionSplitState state) {
        return state.toSplit();
    }

    @Override
    protected void onSplitFinished(Map<String, KafkaPartitionSplitState> finishedSplitIds) {
        for (KafkaPartitionSplitState state : finishedSplitIds.values()) {
            TopicPartition tp = state.split().topicPartition();
            ownSplits.remove(tp);
            metrics.untrack(tp);
            if (!removedPartitions.remove(tp)) {
                finishedUncommitted.put(tp, state.currentOffset());
            }
        }
    }

    @Override
    public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
        List<KafkaPartitionSplit> splits = super.snapshotState(checkpointId);
        if (settings.commitOffsets()) {
            Map<TopicPartition, Long> offsets = new HashMap<>(finishedUncommitted);
            for (KafkaPartitionSplit split : splits) {
                offsets.put(split.topicPartition(), split.startingOffset());
            }
            if (!offsets.isEmpty()) {
                offsetsToCommit.put(checkpointId, offsets);
            }
        }
        return splits;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        Map<TopicPartition, Long> offsets = offsetsToCommit.get(checkpointId);
        offsetsToCommit.headMap(checkpointId + 1).clear();
        if (offsets == null) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        offsets.forEach((tp, offset) -> commit.put(tp, new OffsetAndMetadata(offset)));
        ((KafkaSourceFetcherManager) splitFetcherManager).commitOffsets(commit, (committed, error) -> {
            if (error != null) {
                metrics.recordCommitFailed();
                if (commitFailuresInARow++ == 0) {
                    commitFailingSince = System.nanoTime();
                }
                if (error instanceof RetriableException
                        && (commitFailuresInARow < COMMIT_FAILURES_BEFORE_WARNING
                                || System.nanoTime() - commitFailingSince < COMMIT_FAILURE_GRACE.toNanos())) {
                    // e.g. the group coordinator is not known yet right after start: the next checkpoint commits
                    LOG.debug(
                            "Source {}: offsets of checkpoint {} not committed yet ({}); the next checkpoint"
                                    + " commits them",
                            settings.sourceName(),
                            checkpointId,
                            error.toString());
                } else {
                    LOG.warn(
                            "Source {}: could not commit offsets of checkpoint {} to Kafka ({}; {} commits in a row"
                                    + " failed). Not fatal: Flink's checkpoint holds the offsets; the consumer group only shows"
                                    + " lag until the next commit.",
                            settings.sourceName(),
                            checkpointId,
                            error.getMessage(),
                            commitFailuresInARow);
                }
            } else {
                commitFailuresInARow = 0;
                metrics.recordCommitted(offsets);
                LOG.debug(
                        "Source {}: committed offsets of checkpoint {}: {}",
                        settings.sourceName(),
                        checkpointId,
                        offsets);
            }
        });
        offsets.keySet().stream()
                .filter(tp -> !ownSplits.containsKey(tp))
                .toList()
                .forEach(finishedUncommitted::remove);
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof SourceControlEvent controlEvent) {
            apply(controlEvent.control());
            return;
        }
        if (!(event instanceof PartitionsRemovedEvent removal)) {
            super.handleSourceEvents(event);
            return;
        }
        List<KafkaPartitionSplit> toRemove = new ArrayList<>();
        for (TopicPartition tp : removal.partitions()) {
            KafkaPartitionSplitState state = ownSplits.get(tp);
            if (state != null && removedPartitions.add(tp)) {
                toRemove.add(state.split());
            }
        }
        if (!toRemove.isEmpty()) {
            LOG.info(
                    "Source {}: partitions {} were removed; releasing their splits",
                    settings.sourceName(),
                    toRemove.stream().map(KafkaPartitionSplit::splitId).toList());
            splitFetcherManager.removeSplits(toRemove);
        }
    }
}
