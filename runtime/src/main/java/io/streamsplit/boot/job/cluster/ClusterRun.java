package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.job.state.RetainedState;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.jspecify.annotations.Nullable;

/**
 * The run of the job this instance of the application attached to on the cluster, and how.
 *
 * @param client the run's client
 * @param generation the run's generation (its job id's second half)
 * @param how how this instance came to it
 * @param fingerprint this application's job fingerprint
 * @param runFingerprint the fingerprint the run was submitted with (differs from {@code fingerprint}
 *     only for a run another version of the application submitted, which this instance follows)
 * @param submittedBy the instance that submitted the run ({@code pid@host})
 * @param restoredFrom the checkpoint or savepoint the run started from, when this instance started it from one
 */
public record ClusterRun(
        JobClient client,
        long generation,
        How how,
        String fingerprint,
        @Nullable String runFingerprint,
        @Nullable String submittedBy,
        @Nullable RetainedState restoredFrom) {

    /** How this instance came to the run. */
    public enum How {
        /** Submitted it from the sources' starting offsets: the job had no state. */
        SUBMITTED,
        /** Submitted it from the newest state the job left, or from {@code restore-path}. */
        RESUMED,
        /** Found it running, unchanged, and attached to it. */
        ADOPTED,
        /** Found another version running, stopped it and submitted this one. */
        UPGRADED,
        /** Its own run was replaced by another instance's; attached to the new one. */
        FOLLOWED
    }

    public JobID jobId() {
        return client.getJobID();
    }

    /** Whether this instance submitted the run (rather than finding it there). */
    public boolean submittedHere() {
        return how == How.SUBMITTED || how == How.RESUMED || how == How.UPGRADED;
    }

    /** For {@code /actuator/streamsplit}. */
    public Map<String, Object> describe() {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("generation", generation);
        described.put("thisInstance", how.name().toLowerCase(java.util.Locale.ROOT));
        described.put("fingerprint", fingerprint);
        if (runFingerprint != null && !runFingerprint.equals(fingerprint)) {
            described.put("runFingerprint", runFingerprint);
        }
        if (submittedBy != null) {
            described.put("submittedBy", submittedBy);
        }
        if (restoredFrom != null) {
            described.put("restoredFrom", restoredFrom.path());
        }
        return described;
    }
}
