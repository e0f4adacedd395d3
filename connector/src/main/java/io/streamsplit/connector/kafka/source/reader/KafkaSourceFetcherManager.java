package io.streamsplit.connector.kafka.source.reader;

import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.fetcher.SingleThreadFetcherManager;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcher;
import org.apache.flink.connector.base.source.reader.fetcher.SplitFetcherTask;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.TopicPartition;

/**
 * The single-fetcher manager of a Kafka reader, plus what only the fetcher thread may do with the
 * consumer: committing offsets, pausing the whole source, and reporting removed splits to the reader.
 */
@Internal
final class KafkaSourceFetcherManager extends SingleThreadFetcherManager<KafkaRecordRun, KafkaPartitionSplit> {

    /** Queue slot used when the fetcher reports removed splits outside a regular fetch. */
    private static final int REMOVAL_REPORT_THREAD_INDEX = Integer.MAX_VALUE / 2;

    /** Set on the task thread; read when a fetcher (and its split reader) is created, and by the gauge. */
    private volatile boolean sourcePaused;

    KafkaSourceFetcherManager(
            Function<Consumer<Set<String>>, KafkaPartitionSplitReader> readerFactory, Configuration configuration) {
        this(new ReaderFactoryHolder(readerFactory), configuration);
    }

    private KafkaSourceFetcherManager(ReaderFactoryHolder holder, Configuration configuration) {
        super(holder::create, configuration);
        holder.manager = this;
    }

    /** Queues an offset commit on the fetcher thread; starts a fetcher if none runs (all splits finished). */
    void commitOffsets(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        SplitFetcher<KafkaRecordRun, KafkaPartitionSplit> fetcher = getRunningFetcher();
        if (fetcher == null) {
            fetcher = createSplitFetcher();
            startFetcher(fetcher);
        }
        KafkaPartitionSplitReader reader = (KafkaPartitionSplitReader) fetcher.getSplitReader();
        fetcher.enqueueTask(new SplitFetcherTask() {
            @Override
            public boolean run() {
                reader.commitOffsets(offsets, callback);
                return true;
            }

            @Override
            public void wakeUp() {}
        });
    }

    /**
     * Pauses or resumes all of this reader's splits, now and for splits added later; the fetcher
     * is woken so the change applies within one fetch, not after the current poll.
     */
    void pauseSource(boolean paused) {
        sourcePaused = paused;
        SplitFetcher<KafkaRecordRun, KafkaPartitionSplit> fetcher = getRunningFetcher();
        if (fetcher == null) {
            return; // the next fetcher's split reader starts in this state
        }
        KafkaPartitionSplitReader reader = (KafkaPartitionSplitReader) fetcher.getSplitReader();
        fetcher.enqueueTask(new SplitFetcherTask() {
            @Override
            public boolean run() {
                reader.pauseSource(paused);
                return true;
            }

            @Override
            public void wakeUp() {}
        });
        reader.wakeUp();
    }

    /** Whether the operator has this reader's source paused (or it waits, paused, for the first word). */
    boolean isSourcePaused() {
        return sourcePaused;
    }

    private void reportRemoved(Set<String> splitIds) {
        try {
            while (!getQueue().put(REMOVAL_REPORT_THREAD_INDEX, new KafkaPartitionRecords(splitIds))) {
                // woken up while the queue was full; try again
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class ReaderFactoryHolder {
        private final Function<Consumer<Set<String>>, KafkaPartitionSplitReader> factory;

        @SuppressWarnings("NullAway.Init") // the manager sets itself before it creates a reader
        private KafkaSourceFetcherManager manager;

        ReaderFactoryHolder(Function<Consumer<Set<String>>, KafkaPartitionSplitReader> factory) {
            this.factory = factory;
        }

        SplitReader<KafkaRecordRun, KafkaPartitionSplit> create() {
            KafkaPartitionSplitReader reader = factory.apply(manager::reportRemoved);
            reader.pauseSource(manager.sourcePaused); // before its fetcher thread starts
            return reader;
        }
    }
}
