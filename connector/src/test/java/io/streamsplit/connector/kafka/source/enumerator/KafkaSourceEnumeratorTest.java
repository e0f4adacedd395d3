package io.streamsplit.connector.kafka.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.connector.kafka.source.OffsetResetStrategy;
import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.metrics.KafkaSourceMetricNames;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class KafkaSourceEnumeratorTest {

    private final InMemoryKafkaMetadata metadata = new InMemoryKafkaMetadata();

    private KafkaSourceEnumerator enumerator(
            TestingSplitEnumeratorContext<KafkaPartitionSplit> context,
            KafkaSubscription subscription,
            StartingOffsets starting,
            StoppingOffsets stopping,
            long intervalMillis,
            KafkaEnumeratorState state) {
        KafkaSourceEnumerator.Settings settings =
                new KafkaSourceEnumerator.Settings("test", subscription, starting, stopping, "group", intervalMillis);
        return new KafkaSourceEnumerator(settings, context, () -> metadata, state);
    }

    private static TestingSplitEnumeratorContext<KafkaPartitionSplit> contextWithReaders(
            int parallelism, int... readers) {
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = new TestingSplitEnumeratorContext<>(parallelism);
        for (int reader : readers) {
            context.registerReader(reader, "localhost");
        }
        return context;
    }

    private static void runAll(TestingSplitEnumeratorContext<?> context) {
        for (int i = 0; i < 3; i++) {
            context.triggerAllActions();
        }
    }

    private static Map<TopicPartition, Integer> owners(TestingSplitEnumeratorContext<KafkaPartitionSplit> context) {
        Map<TopicPartition, Integer> owners = new HashMap<>();
        context.getSplitAssignments()
                .forEach((reader, state) -> state.getAssignedSplits()
                        .forEach(split -> assertThat(owners.put(split.topicPartition(), reader))
                                .as("assigned once")
                                .isNull()));
        return owners;
    }

    private static Set<TopicPartition> partitions(String topic, int count) {
        return java.util.stream.IntStream.range(0, count)
                .mapToObj(p -> new TopicPartition(topic, p))
                .collect(Collectors.toSet());
    }

    @Test
    void everyPartitionGoesToItsFormulaOwnerExactlyOnceForSeveralParallelisms() {
        metadata.topic("a", 4).topic("b", 3);
        for (int parallelism : new int[] {1, 2, 3, 5}) {
            int[] readers = java.util.stream.IntStream.range(0, parallelism).toArray();
            TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(parallelism, readers);
            enumerator(
                            context,
                            KafkaSubscription.topics(List.of("a", "b")),
                            StartingOffsets.earliest(),
                            null,
                            0,
                            KafkaEnumeratorState.empty())
                    .start();
            runAll(context);

            Map<TopicPartition, Integer> owners = owners(context);
            assertThat(owners.keySet())
                    .containsExactlyInAnyOrderElementsOf(
                            java.util.stream.Stream.concat(partitions("a", 4).stream(), partitions("b", 3).stream())
                                    .toList());
            owners.forEach((tp, reader) -> assertThat(reader).isEqualTo(KafkaSplitAssignment.ownerOf(tp, parallelism)));
            if (parallelism > 1) {
                assertThat(Set.copyOf(owners.values()))
                        .as("spread over readers")
                        .hasSizeGreaterThan(1);
            }
        }
    }

    /**
     * FLINK-40615 (the official source): with a discovery interval shorter than the time a split takes to be set
     * up, the next discovery found the partitions whose offsets were still being resolved, took them for new and
     * assigned them a second time (its report: 120 records read instead of 100). Here the second discovery,
     * with partitions added meanwhile, lands while the first discovery's offsets are still being resolved.
     */
    @Test
    void aDiscoveryWhileTheLastOnesSplitsAreStillBeingSetUpAssignsNoPartitionTwice() {
        metadata.topic("a", 4);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(2, 0, 1);
        enumerator(
                        context,
                        KafkaSubscription.topics(List.of("a")),
                        StartingOffsets.earliest(),
                        null,
                        10,
                        KafkaEnumeratorState.empty())
                .start();
        var executor = context.getExecutorService();

        executor.triggerPeriodicScheduledTasks(); // the first discovery finds a-0..a-3
        executor.trigger(); // its result: the offsets of a-0..a-3 are being resolved (queued, not run)
        metadata.topic("a", 6); // two partitions added meanwhile
        executor.triggerPeriodicScheduledTasks(); // the next discovery, before the first's splits are set up
        runAll(context);

        assertThat(owners(context).keySet()).as("each partition once").isEqualTo(partitions("a", 6));
        assertThat(context.getSplitAssignments().values().stream()
                        .mapToInt(state -> state.getAssignedSplits().size())
                        .sum())
                .isEqualTo(6);
    }

    @Test
    void pendingPartitionsAndLastDiscoveryTimeAreReportedAsGauges() {
        metadata.topic("orders", 4);
        Map<String, Gauge<?>> gauges = new HashMap<>();
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = new TestingSplitEnumeratorContext<>(2) {
            @Override
            public SplitEnumeratorMetricGroup metricGroup() {
                return new CapturingMetricGroup(gauges);
            }
        };
        context.registerReader(0, "localhost");
        KafkaSourceEnumerator enumerator = enumerator(
                context,
                KafkaSubscription.topics(List.of("orders")),
                StartingOffsets.earliest(),
                null,
                0,
                KafkaEnumeratorState.empty());
        long before = System.currentTimeMillis();
        enumerator.start();
        assertThat(gauges.get(KafkaSourceMetricNames.LAST_DISCOVERY_TIME).getValue())
                .isEqualTo(-1L);
        runAll(context);

        String expectedPending = partitions("orders", 4).stream()
                .filter(tp -> KafkaSplitAssignment.ownerOf(tp, 2) == 1)
                .map(KafkaPartitionSplit::splitId)
                .sorted()
                .collect(Collectors.joining(","));
        assertThat(gauges.get(KafkaSourceMetricNames.PENDING_PARTITIONS).getValue())
                .isEqualTo(expectedPending);
        assertThat((Long) gauges.get(KafkaSourceMetricNames.LAST_DISCOVERY_TIME).getValue())
                .isGreaterThanOrEqualTo(before);

        context.registerReader(1, "localhost");
        enumerator.addReader(1);
        assertThat(gauges.get(KafkaSourceMetricNames.PENDING_PARTITIONS).getValue())
                .isEqualTo("");
    }

    /** Keeps the gauges the enumerator registers, so the test can read them. */
    private static final class CapturingMetricGroup extends UnregisteredMetricsGroup
            implements SplitEnumeratorMetricGroup {
        private final Map<String, Gauge<?>> gauges;

        CapturingMetricGroup(Map<String, Gauge<?>> gauges) {
            this.gauges = gauges;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            gauges.put(name, gauge);
            return gauge;
        }

        @Override
        public <G extends Gauge<Long>> G setUnassignedSplitsGauge(G gauge) {
            return gauge;
        }
    }

    @Test
    void splitsWaitForTheirReaderAndAreAssignedWhenItRegisters() {
        metadata.topic("orders", 4);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(2, 0);
        KafkaSourceEnumerator enumerator = enumerator(
                context,
                KafkaSubscription.topics(List.of("orders")),
                StartingOffsets.earliest(),
                null,
                0,
                KafkaEnumeratorState.empty());
        enumerator.start();
        runAll(context);

        assertThat(context.getSplitAssignments()).containsOnlyKeys(0);
        Set<TopicPartition> pending = enumerator.snapshotState(1).pendingSplits().stream()
                .map(KafkaPartitionSplit::topicPartition)
                .collect(Collectors.toSet());
        assertThat(pending).isNotEmpty().allMatch(tp -> KafkaSplitAssignment.ownerOf(tp, 2) == 1);

        context.registerReader(1, "localhost");
        enumerator.addReader(1);

        assertThat(context.getSplitAssignments().get(1).getAssignedSplits())
                .extracting(KafkaPartitionSplit::topicPartition)
                .containsExactlyInAnyOrderElementsOf(pending);
        assertThat(enumerator.snapshotState(2).pendingSplits()).isEmpty();
        assertThat(enumerator.snapshotState(2).assignedPartitions()).hasSize(4);
    }

    @Test
    void splitsAddedBackFromAFailedReaderKeepTheirProgressAndGoBackToIt() {
        metadata.topic("orders", 2);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(1, 0);
        KafkaSourceEnumerator enumerator = enumerator(
                context,
                KafkaSubscription.topics(List.of("orders")),
                StartingOffsets.earliest(),
                null,
                0,
                KafkaEnumeratorState.empty());
        enumerator.start();
        runAll(context);

        KafkaPartitionSplit progressed = new KafkaPartitionSplit(new TopicPartition("orders", 0), 17);
        context.registeredReaders().remove(0);
        enumerator.addSplitsBack(List.of(progressed), 0);
        assertThat(enumerator.snapshotState(3).pendingSplits()).containsExactly(progressed);

        context.registerReader(0, "localhost");
        enumerator.addReader(0);
        List<KafkaPartitionSplit> all = context.getSplitAssignments().get(0).getAssignedSplits();
        assertThat(all.get(all.size() - 1)).isEqualTo(progressed);
    }

    @Test
    void initialDiscoveryUsesStartingOffsetsAndLaterPartitionsStartFromEarliest() {
        metadata.topic("orders", 1).offsets(new TopicPartition("orders", 0), 2, 10);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(1, 0);
        enumerator(
                        context,
                        KafkaSubscription.pattern(Pattern.compile("orders.*")),
                        StartingOffsets.latest(),
                        null,
                        1000,
                        KafkaEnumeratorState.empty())
                .start();
        runAll(context);
        assertThat(context.getSplitAssignments().get(0).getAssignedSplits())
                .containsExactly(new KafkaPartitionSplit(new TopicPartition("orders", 0), 10));

        metadata.topic("orders", 2)
                .offsets(new TopicPartition("orders", 1), 3, 20)
                .topic("orders-eu", 1)
                .offsets(new TopicPartition("orders-eu", 0), 0, 5);
        runAll(context);

        assertThat(context.getSplitAssignments().get(0).getAssignedSplits())
                .containsExactlyInAnyOrder(
                        new KafkaPartitionSplit(new TopicPartition("orders", 0), 10),
                        new KafkaPartitionSplit(new TopicPartition("orders", 1), 3),
                        new KafkaPartitionSplit(new TopicPartition("orders-eu", 0), 0));
    }

    @Test
    void deletedTopicIsReleasedFromEveryReaderAndDroppedFromState() {
        metadata.topic("keep", 1).topic("gone", 2);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(2, 0, 1);
        KafkaSourceEnumerator enumerator = enumerator(
                context,
                KafkaSubscription.topics(List.of("keep", "gone")),
                StartingOffsets.earliest(),
                null,
                1000,
                KafkaEnumeratorState.empty());
        enumerator.start();
        runAll(context);

        metadata.deleteTopic("gone");
        runAll(context);

        Map<Integer, List<TopicPartition>> released = new HashMap<>();
        context.getSentEvents()
                .forEach((reader, events) ->
                        events.forEach(event -> released.computeIfAbsent(reader, r -> new java.util.ArrayList<>())
                                .addAll(((PartitionsRemovedEvent) event).partitions())));
        // every reader hears of it: restored at another parallelism, any reader may hold a split
        assertThat(released).containsOnlyKeys(0, 1);
        released.values().forEach(tps -> assertThat(tps).containsExactlyInAnyOrderElementsOf(partitions("gone", 2)));
        assertThat(enumerator.snapshotState(5).assignedPartitions()).containsExactly(new TopicPartition("keep", 0));
    }

    @Test
    void discoveryFailureOfPeriodicSourceIsRetriedAndOfOneShotSourceFailsTheJob() {
        metadata.topic("orders", 1);
        metadata.failing(true);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> periodic = contextWithReaders(1, 0);
        enumerator(
                        periodic,
                        KafkaSubscription.topics(List.of("orders")),
                        StartingOffsets.earliest(),
                        null,
                        1000,
                        KafkaEnumeratorState.empty())
                .start();
        runAll(periodic);
        assertThat(periodic.getSplitAssignments()).isEmpty();
        metadata.failing(false);
        runAll(periodic);
        assertThat(periodic.getSplitAssignments().get(0).getAssignedSplits()).hasSize(1);

        metadata.failing(true);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> once = contextWithReaders(1, 0);
        enumerator(
                        once,
                        KafkaSubscription.topics(List.of("orders")),
                        StartingOffsets.earliest(),
                        null,
                        0,
                        KafkaEnumeratorState.empty())
                .start();
        assertThatThrownBy(() -> runAll(once))
                .hasStackTraceContaining("Source test could not discover partitions")
                .hasStackTraceContaining("cluster unreachable");
    }

    @Test
    void boundedSourceSignalsNoMoreSplitsToEveryReaderIncludingIdleOnes() {
        metadata.topic("orders", 1).offsets(new TopicPartition("orders", 0), 0, 7);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(3, 0, 1, 2);
        enumerator(
                        context,
                        KafkaSubscription.topics(List.of("orders")),
                        StartingOffsets.earliest(),
                        StoppingOffsets.latest(),
                        0,
                        KafkaEnumeratorState.empty())
                .start();
        runAll(context);

        assertThat(context.getSplitAssignments()).hasSize(3);
        context.getSplitAssignments()
                .values()
                .forEach(state ->
                        assertThat(state.hasReceivedNoMoreSplitsSignal()).isTrue());
        assertThat(context.getSplitAssignments().values().stream().flatMap(s -> s.getAssignedSplits().stream()))
                .containsExactly(new KafkaPartitionSplit(new TopicPartition("orders", 0), 0, 7));
    }

    @Test
    void committedOffsetsWithFailStrategyFailNamingThePartitionsWithoutCommit() {
        TopicPartition p0 = new TopicPartition("orders", 0);
        metadata.topic("orders", 2).committed(p0, 5);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(1, 0);
        enumerator(
                        context,
                        KafkaSubscription.topics(List.of("orders")),
                        StartingOffsets.committed(OffsetResetStrategy.FAIL),
                        null,
                        0,
                        KafkaEnumeratorState.empty())
                .start();

        assertThatThrownBy(() -> runAll(context))
                .hasStackTraceContaining("no committed offset for [orders-1]")
                .hasStackTraceContaining("group");
    }

    @Test
    void committedOffsetsFallBackToTheResetStrategyPerPartition() {
        TopicPartition p0 = new TopicPartition("orders", 0);
        TopicPartition p1 = new TopicPartition("orders", 1);
        metadata.topic("orders", 2).committed(p0, 5).offsets(p1, 1, 9);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(1, 0);
        enumerator(
                        context,
                        KafkaSubscription.topics(List.of("orders")),
                        StartingOffsets.committed(OffsetResetStrategy.LATEST),
                        null,
                        0,
                        KafkaEnumeratorState.empty())
                .start();
        runAll(context);

        assertThat(context.getSplitAssignments().get(0).getAssignedSplits())
                .containsExactlyInAnyOrder(new KafkaPartitionSplit(p0, 5), new KafkaPartitionSplit(p1, 9));
    }

    @Test
    void restoredEnumeratorAssignsPendingSplitsAndReadsNewPartitionsFromEarliest() {
        metadata.topic("orders", 3).offsets(new TopicPartition("orders", 2), 4, 50);
        KafkaEnumeratorState restored = new KafkaEnumeratorState(
                List.of(new TopicPartition("orders", 0)),
                List.of(new KafkaPartitionSplit(new TopicPartition("orders", 1), 33)),
                true);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(1, 0);
        enumerator(context, KafkaSubscription.topics(List.of("orders")), StartingOffsets.latest(), null, 0, restored)
                .start();
        runAll(context);

        assertThat(context.getSplitAssignments().get(0).getAssignedSplits())
                .containsExactlyInAnyOrder(
                        new KafkaPartitionSplit(new TopicPartition("orders", 1), 33),
                        new KafkaPartitionSplit(new TopicPartition("orders", 2), 4));
    }

    @Test
    void partitionsRestoredWithoutOffsetsStartFromTheStartingOffsetsAndMarkersGoToTheReaders() {
        metadata.topic("orders", 3);
        for (int p = 0; p < 3; p++) {
            metadata.offsets(new TopicPartition("orders", p), 10, 500);
        }
        TopicPartition assigned = new TopicPartition("orders", 0);
        TopicPartition unresolved = new TopicPartition("orders", 1);
        KafkaPartitionSplit marker =
                new KafkaPartitionSplit(new TopicPartition("orders", 2), KafkaPartitionSplit.EARLIEST_OFFSET);
        // state of the official source: initial discovery done, one partition never resolved
        KafkaEnumeratorState restored =
                new KafkaEnumeratorState(List.of(assigned), List.of(marker), List.of(unresolved), true);
        TestingSplitEnumeratorContext<KafkaPartitionSplit> context = contextWithReaders(1);
        KafkaSourceEnumerator enumerator = enumerator(
                context, KafkaSubscription.topics(List.of("orders")), StartingOffsets.latest(), null, 0, restored);
        enumerator.start();
        assertThat(enumerator.snapshotState(1)).as("unresolved until resolved").isEqualTo(restored);
        runAll(context);

        context.registerReader(0, "localhost");
        enumerator.addReader(0);
        assertThat(context.getSplitAssignments().get(0).getAssignedSplits())
                .as("configured starting offsets (latest), not the earliest of later-found partitions")
                .containsExactlyInAnyOrder(marker, new KafkaPartitionSplit(unresolved, 500));
        KafkaEnumeratorState after = enumerator.snapshotState(2);
        assertThat(after.assignedPartitions()).containsExactlyInAnyOrder(assigned, unresolved, marker.topicPartition());
        assertThat(after.unresolvedPartitions()).isEmpty();
    }

    @Test
    void offsetMarkersOfRestoredSplitsResolveAgainstTheCluster() throws Exception {
        TopicPartition a = new TopicPartition("orders", 0);
        TopicPartition b = new TopicPartition("orders", 1);
        TopicPartition c = new TopicPartition("orders", 2);
        metadata.topic("orders", 3)
                .offsets(a, 3, 90)
                .offsets(b, 4, 80)
                .offsets(c, 5, 70)
                .committed(c, 33);
        List<KafkaPartitionSplit> resolved = KafkaOffsetsResolver.resolveMarkers(
                List.of(
                        new KafkaPartitionSplit(a, KafkaPartitionSplit.EARLIEST_OFFSET),
                        new KafkaPartitionSplit(b, KafkaPartitionSplit.LATEST_OFFSET),
                        new KafkaPartitionSplit(
                                c, KafkaPartitionSplit.COMMITTED_OFFSET, KafkaPartitionSplit.LATEST_OFFSET),
                        new KafkaPartitionSplit(new TopicPartition("orders", 7), 12)),
                metadata,
                "group");
        assertThat(resolved)
                .containsExactly(
                        new KafkaPartitionSplit(a, 3),
                        new KafkaPartitionSplit(b, 80),
                        new KafkaPartitionSplit(c, 33, 70),
                        new KafkaPartitionSplit(new TopicPartition("orders", 7), 12));
    }
}
