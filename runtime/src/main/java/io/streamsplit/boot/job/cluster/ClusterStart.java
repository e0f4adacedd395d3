package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.flink.remote.ClusterClasses;
import io.streamsplit.boot.flink.remote.ClusterSlots;
import io.streamsplit.boot.flink.remote.FlinkVersionCheck;
import io.streamsplit.boot.flink.remote.JobJars;
import java.net.URI;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * Remote mode, before the application touches the cluster: every class the job needs travels with
 * it, the cluster answers and runs the Flink minor version the job is built with, has the task slots
 * the job needs (one WARN when not), and the job's fingerprint.
 */
public final class ClusterStart {

    private final URI restBase;
    private final ClusterClasses classes;
    private final JobJars jars;

    public ClusterStart(URI restBase, ClusterClasses classes, JobJars jars) {
        this.restBase = restBase;
        this.classes = classes;
        this.jars = jars;
    }

    /** Checks the cluster and {@code graph}; returns the graph's {@link JobFingerprint}. */
    public JobFingerprint.Parts check(StreamGraph graph) {
        classes.requireLoadable(graph);
        try {
            FlinkVersionCheck.requireCompatible(restBase);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while asking the Flink cluster for its version", e);
        }
        ClusterSlots.warnIfShort(restBase, graph);
        return JobFingerprint.parts(graph, jars.shipped());
    }
}
