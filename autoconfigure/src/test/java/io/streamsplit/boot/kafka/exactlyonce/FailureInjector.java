package io.streamsplit.boot.kafka.exactlyonce;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;

/**
 * A pass-through operator that throws at planned points of a run: after the run's N-th record
 * (counted across all subtasks and restarts), and once in {@code notifyCheckpointComplete} after a
 * planned checkpoint, which is after the checkpoint completed and (maybe) before the sink
 * committed its transaction. Each planned failure fires once per run; the state lives in a static
 * map keyed by run id because tasks restart in the same JVM with fresh instances.
 */
public class FailureInjector extends RichMapFunction<String, String> implements CheckpointListener {

    private static final long serialVersionUID = 1L;

    private static final Map<String, AtomicLong> RECORDS = new ConcurrentHashMap<>();
    private static final Set<String> FIRED = ConcurrentHashMap.newKeySet();

    private final String run;
    private final long[] failAfterRecords;
    private final long failOnCheckpoint;

    public FailureInjector(String run, long[] failAfterRecords, long failOnCheckpoint) {
        this.run = run;
        this.failAfterRecords = failAfterRecords;
        this.failOnCheckpoint = failOnCheckpoint;
    }

    /** How many planned failures fired in run {@code run}. */
    public static long fired(String run) {
        return FIRED.stream().filter(key -> key.startsWith(run + "/")).count();
    }

    @Override
    public String map(String value) {
        long seen = RECORDS.computeIfAbsent(run, k -> new AtomicLong()).incrementAndGet();
        for (long threshold : failAfterRecords) {
            if (seen >= threshold && FIRED.add(run + "/records-" + threshold)) {
                throw new IllegalStateException("injected failure after " + threshold + " records");
            }
        }
        return value;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        if (failOnCheckpoint > 0
                && checkpointId >= failOnCheckpoint
                && getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0
                && FIRED.add(run + "/checkpoint-" + failOnCheckpoint)) {
            throw new IllegalStateException("injected failure after checkpoint " + checkpointId + " completed");
        }
    }
}
