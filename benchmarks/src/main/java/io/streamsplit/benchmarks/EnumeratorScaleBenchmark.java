package io.streamsplit.benchmarks;

import io.streamsplit.connector.kafka.source.StartingOffsets;
import io.streamsplit.connector.kafka.source.enumerator.KafkaEnumeratorState;
import io.streamsplit.connector.kafka.source.enumerator.KafkaEnumeratorStateSerializer;
import io.streamsplit.connector.kafka.source.enumerator.KafkaMetadata;
import io.streamsplit.connector.kafka.source.enumerator.KafkaSourceEnumerator;
import io.streamsplit.connector.kafka.source.enumerator.KafkaSubscription;
import io.streamsplit.connector.kafka.source.split.KafkaPartitionSplit;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.kafka.common.TopicPartition;

/**
 * How the split enumerator scales with the number of partitions, without a broker: a metadata
 * stub answers for N partitions (spread over topics of {@code --partitions-per-topic}), and a
 * synchronous enumerator context runs the discovery it schedules. Reported per size: time from
 * {@code start()} to every split assigned to its reader; the time to take and serialize the checkpoint
 * state after assignment, and its size (what a JobManager writes on every checkpoint); the time from
 * those bytes to a restored enumerator whose first discovery found nothing new (a JobManager failover).
 * Median of {@code --runs}.
 *
 * <pre>
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.EnumeratorScaleBenchmark \
 *     -Dexec.args="--max-partitions 100000 --parallelism 64 --runs 5"
 * </pre>
 */
public final class EnumeratorScaleBenchmark {

    /** One size's figures. */
    record Result(
            int partitions,
            double assignMillis,
            double snapshotMillis,
            double restoreMillis,
            int stateBytes,
            int pendingStateBytes) {}

    private EnumeratorScaleBenchmark() {}

    public static void main(String[] args) throws Exception {
        BenchmarkSupport.requireFullJit(EnumeratorScaleBenchmark.class);
        Map<String, Integer> defaults = new LinkedHashMap<>();
        defaults.put("max-partitions", 100_000);
        defaults.put("partitions-per-topic", 100);
        defaults.put("parallelism", 64);
        defaults.put("runs", 5);
        Map<String, Integer> f = BenchmarkSupport.flags(defaults, args);
        run(f.get("max-partitions"), f.get("partitions-per-topic"), f.get("parallelism"), f.get("runs"), System.out);
    }

    /** Runs 1k, 10k, 100k, ... up to {@code maxPartitions}; prints and returns one result per size. */
    static List<Result> run(int maxPartitions, int perTopic, int parallelism, int runs, PrintStream out)
            throws Exception {
        List<Result> results = new ArrayList<>();
        out.printf(
                Locale.ROOT,
                "enumerator scale: %d readers, %d partitions per topic, median of %d runs%n",
                parallelism,
                perTopic,
                runs);
        once(1_000, perTopic, parallelism); // warm-up
        for (int partitions = 1_000; partitions <= maxPartitions; partitions *= 10) {
            List<Double> times = new ArrayList<>();
            List<Double> snapshots = new ArrayList<>();
            List<Double> restores = new ArrayList<>();
            Result last = null;
            for (int i = 0; i < runs; i++) {
                last = once(partitions, perTopic, parallelism);
                times.add(last.assignMillis());
                snapshots.add(last.snapshotMillis());
                restores.add(last.restoreMillis());
            }
            Result result = new Result(
                    partitions,
                    BenchmarkSupport.median(times),
                    BenchmarkSupport.median(snapshots),
                    BenchmarkSupport.median(restores),
                    last.stateBytes(),
                    last.pendingStateBytes());
            results.add(result);
            out.printf(
                    Locale.ROOT,
                    "%,9d partitions: assigned in %,8.1f ms, state written in %,6.1f ms and restored in %,6.1f ms;"
                            + " checkpoint state %,11d B"
                            + " after assignment, %,11d B with every split still pending%n",
                    partitions,
                    result.assignMillis(),
                    result.snapshotMillis(),
                    result.restoreMillis(),
                    result.stateBytes(),
                    result.pendingStateBytes());
        }
        return results;
    }

    private static Result once(int partitions, int perTopic, int parallelism) throws Exception {
        StubMetadata metadata = new StubMetadata(partitions, perTopic);
        SyncContext context = new SyncContext(parallelism);
        KafkaSourceEnumerator.Settings settings = new KafkaSourceEnumerator.Settings(
                "bench",
                KafkaSubscription.topics(List.copyOf(metadata.topics.keySet())),
                StartingOffsets.earliest(),
                null,
                "bench",
                0);
        KafkaEnumeratorStateSerializer serializer = new KafkaEnumeratorStateSerializer();
        int pendingBytes;
        // with no reader registered every split stays pending: the largest state the enumerator keeps
        try (KafkaSourceEnumerator idle = new KafkaSourceEnumerator(
                settings, new SyncContext(parallelism, false), () -> metadata, KafkaEnumeratorState.empty())) {
            idle.start();
            pendingBytes = serializer.serialize(idle.snapshotState(1)).length;
        }
        long start = System.nanoTime();
        try (KafkaSourceEnumerator enumerator =
                new KafkaSourceEnumerator(settings, context, () -> metadata, KafkaEnumeratorState.empty())) {
            enumerator.start();
            context.drain();
            double millis = (System.nanoTime() - start) / 1e6;
            if (context.assignedSplits != partitions) {
                throw new IllegalStateException("assigned " + context.assignedSplits + " of " + partitions + " splits");
            }
            long snapshotStart = System.nanoTime();
            byte[] state = serializer.serialize(enumerator.snapshotState(2));
            double snapshotMillis = (System.nanoTime() - snapshotStart) / 1e6;
            return new Result(
                    partitions,
                    millis,
                    snapshotMillis,
                    restore(state, serializer, settings, metadata, parallelism),
                    state.length,
                    pendingBytes);
        }
    }

    /**
     * Milliseconds from a checkpoint's bytes to a restored enumerator whose first discovery found
     * nothing new (every partition already with its reader): what a JobManager failover adds.
     */
    private static double restore(
            byte[] state,
            KafkaEnumeratorStateSerializer serializer,
            KafkaSourceEnumerator.Settings settings,
            StubMetadata metadata,
            int parallelism)
            throws Exception {
        long start = System.nanoTime();
        KafkaEnumeratorState restored = serializer.deserialize(serializer.getVersion(), state);
        SyncContext context = new SyncContext(parallelism);
        try (KafkaSourceEnumerator enumerator =
                new KafkaSourceEnumerator(settings, context, () -> metadata, restored)) {
            enumerator.start();
            context.drain();
            double millis = (System.nanoTime() - start) / 1e6;
            if (context.assignedSplits != 0
                    || enumerator.snapshotState(3).assignedPartitions().size() != metadata.size()) {
                throw new IllegalStateException(
                        "the restored enumerator assigned " + context.assignedSplits + " splits again; expected none");
            }
            return millis;
        }
    }

    /** Metadata for {@code partitions} partitions over topics {@code t0000...}, all empty (offset 0). */
    private static final class StubMetadata implements KafkaMetadata {

        private final Map<String, Integer> topics = new LinkedHashMap<>();

        StubMetadata(int partitions, int perTopic) {
            for (int t = 0; partitions > 0; t++) {
                int count = Math.min(perTopic, partitions);
                topics.put(String.format(Locale.ROOT, "topic-%05d", t), count);
                partitions -= count;
            }
        }

        int size() {
            return topics.values().stream().mapToInt(Integer::intValue).sum();
        }

        @Override
        public Set<String> listTopics() {
            return new TreeSet<>(topics.keySet());
        }

        @Override
        public Map<String, Integer> partitionCounts(Collection<String> names) {
            Map<String, Integer> counts = new HashMap<>();
            names.forEach(name -> {
                if (topics.containsKey(name)) {
                    counts.put(name, topics.get(name));
                }
            });
            return counts;
        }

        @Override
        public Map<TopicPartition, Long> earliestOffsets(Collection<TopicPartition> partitions) {
            return zeros(partitions);
        }

        @Override
        public Map<TopicPartition, Long> latestOffsets(Collection<TopicPartition> partitions) {
            return zeros(partitions);
        }

        @Override
        public Map<TopicPartition, Long> offsetsForTimestamp(Collection<TopicPartition> partitions, long timestamp) {
            return zeros(partitions);
        }

        @Override
        public Map<TopicPartition, Long> committedOffsets(String groupId, Collection<TopicPartition> partitions) {
            return Map.of();
        }

        @Override
        public void close() {}

        private static Map<TopicPartition, Long> zeros(Collection<TopicPartition> partitions) {
            Map<TopicPartition, Long> offsets = new HashMap<>(partitions.size() * 2);
            partitions.forEach(tp -> offsets.put(tp, 0L));
            return offsets;
        }
    }

    /** Runs what the enumerator schedules on the calling thread, like a coordinator with no other work. */
    private static final class SyncContext implements SplitEnumeratorContext<KafkaPartitionSplit> {

        private final int parallelism;
        private final Map<Integer, ReaderInfo> readers = new HashMap<>();
        private final Deque<Runnable> actions = new ArrayDeque<>();
        private final SplitEnumeratorMetricGroup metrics = UnregisteredMetricsGroup.createSplitEnumeratorMetricGroup();
        private int assignedSplits;

        SyncContext(int parallelism) {
            this(parallelism, true);
        }

        SyncContext(int parallelism, boolean withReaders) {
            this.parallelism = parallelism;
            for (int i = 0; withReaders && i < parallelism; i++) {
                readers.put(i, new ReaderInfo(i, "localhost"));
            }
        }

        void drain() {
            while (!actions.isEmpty()) {
                actions.poll().run();
            }
        }

        @Override
        public SplitEnumeratorMetricGroup metricGroup() {
            return metrics;
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {}

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public Map<Integer, ReaderInfo> registeredReaders() {
            return readers;
        }

        @Override
        public void assignSplits(SplitsAssignment<KafkaPartitionSplit> assignment) {
            assignment.assignment().values().forEach(splits -> assignedSplits += splits.size());
        }

        @Override
        public void signalNoMoreSplits(int subtask) {}

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
            actions.add(() -> {
                try {
                    handler.accept(callable.call(), null);
                } catch (Exception e) {
                    handler.accept(null, e);
                }
            });
            drain();
        }

        @Override
        public <T> void callAsync(
                Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelay, long period) {
            callAsync(callable, handler);
        }

        @Override
        public void runInCoordinatorThread(Runnable runnable) {
            actions.add(runnable);
        }
    }
}
