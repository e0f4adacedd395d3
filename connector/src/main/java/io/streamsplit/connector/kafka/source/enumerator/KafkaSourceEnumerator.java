package io.streamsplit.connector.kafka.source.enumerator;

import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.control.SourceControlRelay;
import io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The split enumerator of a StreamSplit Kafka source. Runs in the JobManager, one per source.
 *
 * <p>It discovers partitions through {@link KafkaMetadata} (once, or every discovery interval)
 * on the context's worker thread, resolves their starting (and, when bounded, stopping) offsets
 * there too, and hands each split to the reader chosen by {@link KafkaSplitAssignment}. Splits
 * whose reader has not registered yet stay pending. Partitions that disappear are dropped from
 * pending and released from their reader with a {@link PartitionsRemovedEvent}. A bounded source
 * signals "no more splits" to every reader, including readers that got no split, once the
 * initial discovery has been assigned.
 *
 * <p>All fields are touched on the coordinator thread only; blocking calls run in
 * {@code callAsync} callables that return values and never touch fields.
 */
@Internal
public final class KafkaSourceEnumerator implements SplitEnumerator<KafkaPartitionSplit, KafkaEnumeratorState> {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaSourceEnumerator.class);

    /** What the enumerator needs to know about its source. */
    public record Settings(
            String sourceName,
            KafkaSubscription subscription,
            StartingOffsets startingOffsets,
            @Nullable StoppingOffsets stoppingOffsets,
            String groupId,
            long discoveryIntervalMillis)
            implements Serializable {

        boolean bounded() {
            return stoppingOffsets != null;
        }
    }

    private final Settings settings;
    private final SplitEnumeratorContext<KafkaPartitionSplit> context;
    private final Supplier<KafkaMetadata> metadataFactory;

    // partitions by topic, not in hash sets of TopicPartition: see PartitionIndex
    private final PartitionIndex assigned;
    private final PendingSplits pending = new PendingSplits();
    private final PartitionIndex resolving = new PartitionIndex();
    /** Restored without offsets (official source state): they start from the configured starting offsets. */
    private final PartitionIndex unresolved;

    private final PartitionIndex removed = new PartitionIndex();
    private final Set<Integer> signalledNoMoreSplits = new HashSet<>();
    private boolean initialDiscoveryFinished;
    // written on the coordinator thread, read by metric reporters on theirs
    private volatile String pendingSnapshot = "";
    private volatile long lastDiscoveryTime = -1;
    private boolean initialDiscoveryResolving;

    private @Nullable KafkaMetadata metadata;
    private final @Nullable SourceControlRelay control;

    public KafkaSourceEnumerator(
            Settings settings,
            SplitEnumeratorContext<KafkaPartitionSplit> context,
            Supplier<KafkaMetadata> metadataFactory,
            KafkaEnumeratorState restored) {
        this(settings, context, metadataFactory, restored, null);
    }

    /** @param control relays pause, resume and rate commands from a control topic; {@code null}: none */
    public KafkaSourceEnumerator(
            Settings settings,
            SplitEnumeratorContext<KafkaPartitionSplit> context,
            Supplier<KafkaMetadata> metadataFactory,
            KafkaEnumeratorState restored,
            @Nullable SourceControlRelay control) {
        this.control = control;
        this.settings = settings;
        this.context = context;
        this.metadataFactory = metadataFactory;
        this.assigned = new PartitionIndex(restored.assignedPartitions());
        restored.pendingSplits().forEach(pending::put);
        this.unresolved = new PartitionIndex(restored.unresolvedPartitions());
        this.initialDiscoveryFinished = restored.initialDiscoveryFinished();
    }

    @Override
    public void start() {
        metadata = metadataFactory.get();
        if (control != null) {
            control.start();
        }
        context.metricGroup().gauge(KafkaSourceMetricNames.ASSIGNED_SPLITS, () -> (long) assigned.size());
        context.metricGroup().gauge(KafkaSourceMetricNames.PENDING_SPLITS, () -> (long) pending.size());
        context.metricGroup().setUnassignedSplitsGauge(() -> (long) pending.size());
        context.metricGroup().gauge(KafkaSourceMetricNames.PENDING_PARTITIONS, () -> pendingSnapshot);
        context.metricGroup().gauge(KafkaSourceMetricNames.LAST_DISCOVERY_TIME, () -> lastDiscoveryTime);

        if (settings.bounded() && initialDiscoveryFinished) {
            LOG.info(
                    "Source {}: restored bounded source with {} assigned and {} pending splits; "
                            + "no further partition discovery",
                    settings.sourceName(),
                    assigned.size(),
                    pending.size());
            assignPendingSplits();
        } else if (settings.discoveryIntervalMillis() > 0) {
            LOG.info(
                    "Source {}: discovering partitions of {} every {} ms",
                    settings.sourceName(),
                    settings.subscription(),
                    settings.discoveryIntervalMillis());
            context.callAsync(
                    this::discoverPartitions, this::onPartitionsDiscovered, 0, settings.discoveryIntervalMillis());
        } else {
            LOG.info("Source {}: discovering partitions of {} once", settings.sourceName(), settings.subscription());
            context.callAsync(this::discoverPartitions, this::onPartitionsDiscovered);
        }
    }

    // ---------------------------------------------------------------- worker thread (no field access)

    private PartitionIndex discoverPartitions() throws Exception {
        return PartitionIndex.of(settings.subscription().discover(Objects.requireNonNull(metadata, "started")));
    }

    /** Splits for {@code partitions}: the configured starting offsets for {@code initial}, earliest for the rest. */
    private List<KafkaPartitionSplit> resolveSplits(Set<TopicPartition> partitions, Set<TopicPartition> initial)
            throws Exception {
        return KafkaOffsetsResolver.splits(
                partitions,
                initial,
                settings.startingOffsets(),
                settings.stoppingOffsets(),
                Objects.requireNonNull(metadata, "started"),
                settings.groupId());
    }

    // ---------------------------------------------------------------- coordinator thread

    private void onPartitionsDiscovered(PartitionIndex current, Throwable error) {
        if (error != null) {
            handleDiscoveryError("discover partitions of " + settings.subscription(), error);
            return;
        }
        lastDiscoveryTime = System.currentTimeMillis();
        PartitionIndex gone = new PartitionIndex(assigned);
        gone.addAll(pending.partitions());
        gone.addAll(unresolved);
        gone.removeAll(current);
        releaseRemovedPartitions(gone);

        PartitionIndex added = new PartitionIndex(current);
        added.removeAll(assigned);
        added.removeAll(pending.partitions());
        added.removeAll(resolving);
        boolean initial = !initialDiscoveryFinished && !initialDiscoveryResolving;
        if (added.isEmpty()) {
            onSplitsResolved(added, initial, List.of(), null);
            return;
        }
        removed.removeAll(added);
        resolving.addAll(added);
        initialDiscoveryResolving |= initial;
        PartitionIndex fromStartingOffsets;
        if (initial) {
            fromStartingOffsets = added;
        } else {
            fromStartingOffsets = new PartitionIndex(unresolved);
            fromStartingOffsets.retainAll(added);
        }
        context.callAsync(
                () -> resolveSplits(added, fromStartingOffsets),
                (splits, resolveError) -> onSplitsResolved(added, initial, splits, resolveError));
    }

    private void onSplitsResolved(
            Set<TopicPartition> partitions,
            boolean initial,
            List<KafkaPartitionSplit> splits,
            @Nullable Throwable error) {
        resolving.removeAll(partitions);
        if (initial) {
            initialDiscoveryResolving = false;
        }
        if (error != null) {
            handleDiscoveryError(
                    "resolve offsets of "
                            + new TreeSet<>(partitions.stream()
                                    .map(TopicPartition::toString)
                                    .toList()),
                    error);
            return;
        }
        splits.forEach(pending::put);
        List<String> restoredWithoutOffsets = unresolved.isEmpty()
                ? List.of()
                : splits.stream()
                        .filter(split -> unresolved.remove(split.topicPartition()))
                        .map(KafkaPartitionSplit::splitId)
                        .sorted()
                        .toList();
        if (!restoredWithoutOffsets.isEmpty()) {
            LOG.info(
                    "Source {}: partitions {} were restored without offsets (never assigned by the source that took the"
                            + " savepoint); reading them from the starting offsets {}",
                    settings.sourceName(),
                    restoredWithoutOffsets,
                    settings.startingOffsets());
        }
        if (initial) {
            initialDiscoveryFinished = true;
            LOG.info(
                    "Source {}: found {} partitions of {}; starting offsets {}{}",
                    settings.sourceName(),
                    splits.size(),
                    settings.subscription(),
                    settings.startingOffsets(),
                    settings.bounded() ? ", stopping offsets " + settings.stoppingOffsets() : "");
        } else if (splits.size() > restoredWithoutOffsets.size()) {
            LOG.info(
                    "Source {}: found new partitions {}; reading them from their earliest offset",
                    settings.sourceName(),
                    splits.stream().map(KafkaPartitionSplit::splitId).sorted().toList());
        }
        assignPendingSplits();
    }

    private void handleDiscoveryError(String what, Throwable error) {
        boolean periodic = settings.discoveryIntervalMillis() > 0;
        boolean fatal = !periodic || error instanceof IllegalStateException;
        String message = "Source " + settings.sourceName() + " could not " + what + ": " + error.getMessage();
        if (fatal) {
            throw new FlinkRuntimeException(message, error);
        }
        LOG.warn("{}; retrying at the next discovery in {} ms", message, settings.discoveryIntervalMillis(), error);
    }

    private void releaseRemovedPartitions(PartitionIndex gone) {
        if (gone.isEmpty()) {
            return;
        }
        LOG.info(
                "Source {}: partitions {} no longer exist or no longer match {}; releasing them",
                settings.sourceName(),
                new TreeSet<>(gone.stream().map(TopicPartition::toString).toList()),
                settings.subscription());
        List<TopicPartition> released = new ArrayList<>();
        for (TopicPartition tp : gone) {
            pending.remove(tp);
            unresolved.remove(tp);
            if (assigned.remove(tp)) {
                removed.add(tp);
                released.add(tp);
            }
        }
        if (!released.isEmpty()) {
            // to every reader: after a restore at another parallelism (or from another source's savepoint)
            // Flink hands the readers' splits out round-robin, so the formula owner need not hold the split
            context.registeredReaders().keySet().forEach(reader -> sendRemoval(reader, released));
        }
    }

    private void sendRemoval(int reader, List<TopicPartition> partitions) {
        if (context.registeredReaders().containsKey(reader)) {
            context.sendEventToSourceReader(reader, new PartitionsRemovedEvent(partitions));
        }
    }

    private void assignPendingSplits() {
        Set<Integer> readers = context.registeredReaders().keySet();
        Map<Integer, List<KafkaPartitionSplit>> assignment = pending.takeReady(this::owner, readers::contains);
        assignment.values().forEach(splits -> splits.forEach(split -> assigned.add(split.topicPartition())));
        if (!assignment.isEmpty()) {
            LOG.info("Source {}: assigning {}", settings.sourceName(), describe(assignment));
            context.assignSplits(new SplitsAssignment<>(assignment));
        }
        pendingSnapshot = String.join(
                ",",
                pending.all().stream()
                        .map(KafkaPartitionSplit::splitId)
                        .sorted()
                        .toList());
        if (settings.bounded() && initialDiscoveryFinished) {
            for (int reader : readers) {
                if (!signalledNoMoreSplits.contains(reader) && !hasPendingFor(reader)) {
                    context.signalNoMoreSplits(reader);
                    signalledNoMoreSplits.add(reader);
                }
            }
        }
    }

    private boolean hasPendingFor(int reader) {
        return pending.partitions().stream().anyMatch(tp -> owner(tp) == reader);
    }

    private int owner(TopicPartition tp) {
        return KafkaSplitAssignment.ownerOf(tp, context.currentParallelism());
    }

    private static String describe(Map<Integer, List<KafkaPartitionSplit>> assignment) {
        StringBuilder text = new StringBuilder();
        assignment.forEach((reader, splits) -> text.append(text.length() == 0 ? "" : "; ")
                .append("reader ")
                .append(reader)
                .append(" <- ")
                .append(
                        splits.size() > 8
                                ? splits.size() + " splits"
                                : splits.stream()
                                        .map(s -> s.splitId() + "@" + KafkaPartitionSplit.describe(s.startingOffset()))
                                        .toList()));
        return text.toString();
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        // Splits are pushed on discovery and registration; readers never need to ask.
    }

    @Override
    public void addSplitsBack(List<KafkaPartitionSplit> splits, int subtaskId) {
        LOG.info(
                "Source {}: reader {} failed; taking back {} splits until it registers again",
                settings.sourceName(),
                subtaskId,
                splits.size());
        for (KafkaPartitionSplit split : splits) {
            assigned.remove(split.topicPartition());
            if (!removed.contains(split.topicPartition())) {
                pending.put(split);
            }
        }
        assignPendingSplits();
    }

    @Override
    public void addReader(int subtaskId) {
        signalledNoMoreSplits.remove(subtaskId);
        if (!removed.isEmpty()) {
            // a reader restored from a checkpoint taken before the removal may still hold some of these
            sendRemoval(subtaskId, List.copyOf(removed));
        }
        if (control != null) {
            control.addReader(subtaskId);
        }
        assignPendingSplits();
    }

    @Override
    public KafkaEnumeratorState snapshotState(long checkpointId) {
        PartitionIndex stillUnresolved = new PartitionIndex(unresolved);
        stillUnresolved.removeAll(pending.partitions());
        return new KafkaEnumeratorState(assigned, pending.all(), stillUnresolved, initialDiscoveryFinished);
    }

    @Override
    public void close() {
        if (control != null) {
            control.close();
        }
        if (metadata != null) {
            metadata.close();
        }
    }
}
