package io.streamsplit.connector.kafka.source.reader;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsRemoval;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads all splits of one reader with one {@link KafkaConsumer}, on the reader's single fetcher
 * thread. Uses {@code assign} and {@code seek} (never group subscription), byte-array
 * deserializers, and no auto-commit: Flink's checkpoints own the offsets.
 *
 * <p>The consumer is created when the first splits arrive, so that, unless the user set
 * {@code max.partition.fetch.bytes}, one fetch can be sized for the reader rather than for a
 * partition: {@link KafkaSourceReader#partitionFetchBytes(int)}.
 */
@Internal
final class KafkaPartitionSplitReader implements SplitReader<KafkaRecordRun, KafkaPartitionSplit> {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaPartitionSplitReader.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    private static final long LOG_END_REFRESH_MILLIS = 1000;
    private static final Duration LOG_END_LOOKUP_TIMEOUT = Duration.ofSeconds(2);

    private final String sourceName;
    private final Properties consumerProperties;
    /** Created on the fetcher thread with the first splits; read by {@link #wakeUp()} from the task thread. */
    private volatile @Nullable KafkaConsumer<byte[], byte[]> consumer;

    private @Nullable Properties consumerSettings;
    private final KafkaSourceReaderMetrics metrics;
    private final Consumer<Set<String>> removedSplitsReporter;
    private final VanishedPartitions vanished;
    private final Map<TopicPartition, KafkaPartitionSplit> assigned = new LinkedHashMap<>();
    private final Map<TopicPartition, Long> stoppingOffsets = new HashMap<>();
    private final Set<String> finishedBeforeFetch = new HashSet<>();
    private long lastLogEndRefresh;
    /** The whole source is paused by its operator (control topic); new splits start paused too. */
    private boolean sourcePaused;
    /** Partitions paused by Flink's watermark alignment; a source resume leaves them paused. */
    private final Set<TopicPartition> alignmentPaused = new HashSet<>();

    KafkaPartitionSplitReader(
            String sourceName,
            Properties consumerProperties,
            KafkaSourceReaderMetrics metrics,
            Consumer<Set<String>> removedSplitsReporter) {
        this.sourceName = sourceName;
        this.consumerProperties = consumerProperties;
        this.metrics = metrics;
        this.removedSplitsReporter = removedSplitsReporter;
        this.vanished = new VanishedPartitions(sourceName);
    }

    /**
     * The consumer, created on first use (the first splits). Sized for the partitions assigned
     * then when the user left {@code max.partition.fetch.bytes} unset; partitions added later
     * (discovery) share that size, a fetch still bounded by {@code fetch.max.bytes}.
     */
    private KafkaConsumer<byte[], byte[]> consumer() {
        KafkaConsumer<byte[], byte[]> current = consumer;
        if (current == null) {
            Properties properties = new Properties();
            properties.putAll(consumerProperties);
            properties.putIfAbsent(
                    ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
                    String.valueOf(KafkaSourceReader.partitionFetchBytes(assigned.size())));
            LOG.debug(
                    "Source {}: consumer fetches up to {} bytes per partition ({} partitions at start)",
                    sourceName,
                    properties.getProperty(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG),
                    assigned.size());
            current = new KafkaConsumer<>(properties);
            consumerSettings = properties;
            consumer = current;
        }
        return current;
    }

    /** The settings the consumer was created with; {@code null} before the first splits. */
    @Nullable
    Properties consumerSettings() {
        return consumerSettings;
    }

    @Override
    public RecordsWithSplitIds<KafkaRecordRun> fetch() {
        Set<String> finished = new HashSet<>(finishedBeforeFetch);
        finishedBeforeFetch.clear();
        KafkaPartitionRecords result = new KafkaPartitionRecords(finished);
        if (assigned.isEmpty()) {
            return result;
        }
        // created with the first splits, so never null here
        KafkaConsumer<byte[], byte[]> kafka = Objects.requireNonNull(consumer);
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = kafka.poll(POLL_TIMEOUT);
        } catch (WakeupException e) {
            return result;
        } catch (OffsetOutOfRangeException e) {
            throw new IllegalStateException(
                    "Source " + sourceName + ": offsets " + e.offsetOutOfRangePartitions()
                            + " are no longer in the log (deleted by retention) and the offset reset strategy is FAIL."
                            + " Set the offset reset strategy to EARLIEST or LATEST to continue, accepting the gap.",
                    e);
        }
        if (records.isEmpty()) {
            List<TopicPartition> gone = vanished.afterEmptyPoll(kafka, assigned.keySet());
            if (!gone.isEmpty()) {
                kafka.pause(gone);
                gone.forEach(metrics::recordGone);
            }
        }
        Set<TopicPartition> done = new HashSet<>();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> partitionRecords = records.records(tp);
            int limit = partitionRecords.size();
            Long stop = stoppingOffsets.get(tp);
            if (stop != null) {
                while (limit > 0 && partitionRecords.get(limit - 1).offset() >= stop) {
                    limit--;
                }
                if (limit < partitionRecords.size()
                        || (limit > 0 && partitionRecords.get(limit - 1).offset() + 1 >= stop)) {
                    done.add(tp);
                }
            }
            if (limit > 0) {
                result.add(KafkaPartitionSplit.splitId(tp), partitionRecords, limit);
            }
        }
        for (Map.Entry<TopicPartition, Long> entry : stoppingOffsets.entrySet()) {
            if (!records.partitions().contains(entry.getKey())
                    && reachedStop(kafka, entry.getKey(), entry.getValue())) {
                done.add(entry.getKey()); // empty tail, or only transaction markers left before the stop
            }
        }
        if (!done.isEmpty()) {
            for (TopicPartition tp : done) {
                assigned.remove(tp);
                stoppingOffsets.remove(tp);
                finished.add(KafkaPartitionSplit.splitId(tp));
            }
            kafka.assign(assigned.keySet());
        }
        refreshLogEndOffsets(kafka);
        return result;
    }

    private static boolean reachedStop(KafkaConsumer<byte[], byte[]> kafka, TopicPartition tp, long stop) {
        try {
            return kafka.position(tp, Duration.ZERO) >= stop;
        } catch (TimeoutException | WakeupException e) {
            return false; // position not known yet, or woken up: look again after the next poll
        }
    }

    private void refreshLogEndOffsets(KafkaConsumer<byte[], byte[]> kafka) {
        long now = System.currentTimeMillis();
        if (now - lastLogEndRefresh < LOG_END_REFRESH_MILLIS) {
            return;
        }
        lastLogEndRefresh = now;
        if (sourcePaused) {
            refreshPausedLogEndOffsets(kafka);
            return;
        }
        for (TopicPartition tp : assigned.keySet()) {
            OptionalLong lag = kafka.currentLag(tp);
            if (lag.isPresent()) {
                try {
                    metrics.recordLogEndOffset(tp, kafka.position(tp, Duration.ZERO) + lag.getAsLong());
                } catch (TimeoutException | WakeupException e) {
                    // position not known yet; next refresh
                }
            }
        }
    }

    /** A paused partition is not fetched, so its lag would freeze: ask the broker for its end instead. */
    private void refreshPausedLogEndOffsets(KafkaConsumer<byte[], byte[]> kafka) {
        try {
            kafka.endOffsets(assigned.keySet(), LOG_END_LOOKUP_TIMEOUT).forEach(metrics::recordLogEndOffset);
        } catch (TimeoutException | WakeupException e) {
            // broker slow or the fetcher woken: the next refresh asks again
        }
    }

    @Override
    public void handleSplitsChanges(SplitsChange<KafkaPartitionSplit> splitsChange) {
        if (splitsChange instanceof SplitsAddition) {
            List<KafkaPartitionSplit> added = new ArrayList<>();
            for (KafkaPartitionSplit split : splitsChange.splits()) {
                if (split.isBounded() && split.startingOffset() >= split.stoppingOffset()) {
                    finishedBeforeFetch.add(split.splitId());
                    continue;
                }
                assigned.put(split.topicPartition(), split);
                if (split.isBounded()) {
                    stoppingOffsets.put(split.topicPartition(), split.stoppingOffset());
                }
                added.add(split);
            }
            KafkaConsumer<byte[], byte[]> kafka = consumer();
            kafka.assign(assigned.keySet());
            for (KafkaPartitionSplit split : added) {
                kafka.seek(split.topicPartition(), split.startingOffset());
            }
            if (sourcePaused) {
                List<TopicPartition> partitions =
                        added.stream().map(KafkaPartitionSplit::topicPartition).toList();
                kafka.pause(partitions);
                partitions.forEach(tp -> metrics.recordPaused(tp, true));
            }
            LOG.debug("Source {}: reading {}", sourceName, added);
        } else if (splitsChange instanceof SplitsRemoval) {
            Set<String> removed = new HashSet<>();
            vanished.forget(splitsChange.splits().stream()
                    .map(KafkaPartitionSplit::topicPartition)
                    .toList());
            for (KafkaPartitionSplit split : splitsChange.splits()) {
                if (assigned.remove(split.topicPartition()) != null) {
                    stoppingOffsets.remove(split.topicPartition());
                    removed.add(split.splitId());
                }
            }
            if (!removed.isEmpty()) {
                Objects.requireNonNull(consumer).assign(assigned.keySet()); // it had splits, so it has a consumer
                LOG.info("Source {}: stopped reading removed partitions {}", sourceName, removed);
                if (assigned.isEmpty()) {
                    // no further fetch will run on this fetcher; tell the reader directly
                    removedSplitsReporter.accept(removed);
                } else {
                    finishedBeforeFetch.addAll(removed);
                }
            }
        } else {
            throw new UnsupportedOperationException(
                    "Unsupported split change " + splitsChange.getClass().getName());
        }
    }

    @Override
    public void pauseOrResumeSplits(Collection<KafkaPartitionSplit> toPause, Collection<KafkaPartitionSplit> toResume) {
        List<TopicPartition> pause = toPause.stream()
                .map(KafkaPartitionSplit::topicPartition)
                .filter(assigned::containsKey)
                .toList();
        List<TopicPartition> resume = toResume.stream()
                .map(KafkaPartitionSplit::topicPartition)
                .filter(assigned::containsKey)
                .filter(tp -> !vanished.contains(tp))
                .toList();
        if (pause.isEmpty() && resume.isEmpty()) {
            return; // none of ours (perhaps no splits yet): leave the consumer unsized
        }
        alignmentPaused.addAll(pause);
        resume.forEach(alignmentPaused::remove);
        KafkaConsumer<byte[], byte[]> kafka = consumer();
        kafka.pause(pause);
        pause.forEach(tp -> metrics.recordPaused(tp, true));
        if (!sourcePaused) {
            kafka.resume(resume);
            resume.forEach(tp -> metrics.recordPaused(tp, false));
        }
    }

    /**
     * Pauses or resumes every split of this reader for its source's operator: the consumer stops
     * fetching, while positions, commits on checkpoint and log-end offsets (for lag) go on.
     */
    void pauseSource(boolean paused) {
        if (paused == sourcePaused) {
            return;
        }
        sourcePaused = paused;
        KafkaConsumer<byte[], byte[]> kafka = consumer;
        if (kafka == null || assigned.isEmpty()) {
            return; // splits added later start in this state
        }
        List<TopicPartition> partitions = assigned.keySet().stream()
                .filter(tp -> paused || (!alignmentPaused.contains(tp) && !vanished.contains(tp)))
                .toList();
        if (paused) {
            kafka.pause(partitions);
        } else {
            kafka.resume(partitions);
        }
        partitions.forEach(tp -> metrics.recordPaused(tp, paused));
        LOG.info("Source {}: {} {}", sourceName, paused ? "paused reading" : "resumed reading", assigned.keySet());
    }

    /** Commits offsets for a completed checkpoint; runs on the fetcher thread like every consumer call. */
    void commitOffsets(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        if (assigned.isEmpty()) {
            // no poll will run to complete an async commit; commit synchronously instead
            try {
                consumer().commitSync(offsets, Duration.ofSeconds(30));
                callback.onComplete(offsets, null);
            } catch (RuntimeException e) {
                callback.onComplete(offsets, e);
            }
        } else {
            consumer().commitAsync(offsets, callback);
        }
    }

    @Override
    public void wakeUp() {
        KafkaConsumer<byte[], byte[]> current = consumer;
        if (current != null) { // no consumer yet: no poll to wake
            current.wakeup();
        }
    }

    @Override
    public void close() {
        KafkaConsumer<byte[], byte[]> current = consumer;
        if (current != null) {
            current.close(Duration.ofSeconds(10));
        }
    }
}
