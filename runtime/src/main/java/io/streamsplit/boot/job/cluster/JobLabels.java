package io.streamsplit.boot.job.cluster;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the application stores with each run of its job, as global job parameters (Flink shows them
 * under {@code GET /jobs/<id>/config}, {@code execution-config.user-config}): the job's fingerprint,
 * the application that owns the job, its version and the instance that submitted the run.
 *
 * @param values the {@code streamsplit.*} entries
 */
public record JobLabels(Map<String, String> values) {

    static final String PREFIX = "streamsplit.";
    static final String JOB = PREFIX + "job";
    static final String FINGERPRINT = PREFIX + "fingerprint";
    static final String FINGERPRINT_PARTS = PREFIX + "fingerprint-parts";
    static final String OWNER = PREFIX + "owner";
    static final String INSTANCE = PREFIX + "instance";
    static final String VERSION = PREFIX + "version";

    /** The owner of an application whose main class could not be found: not compared. */
    public static final String UNKNOWN_OWNER = "(unknown application)";

    /** The labels of a run this instance submits. */
    static JobLabels of(String job, JobFingerprint.Parts fingerprint, String owner, @Nullable String version) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put(JOB, job);
        values.put(FINGERPRINT, fingerprint.fingerprint());
        values.put(FINGERPRINT_PARTS, fingerprint.toString());
        values.put(OWNER, owner);
        values.put(INSTANCE, thisInstance());
        if (version != null) {
            values.put(VERSION, version);
        }
        return new JobLabels(values);
    }

    /** This JVM, as {@code pid@host}: which instance of the application submitted a run. */
    public static String thisInstance() {
        return ManagementFactory.getRuntimeMXBean().getName();
    }

    /** The fingerprint of the application version that submitted the run; {@code null} when unknown. */
    @Nullable
    String fingerprint() {
        return values.get(FINGERPRINT);
    }

    /** The parts of the run's fingerprint ({@link JobFingerprint.Parts#toString()}); {@code null} when unknown. */
    @Nullable
    String fingerprintParts() {
        return values.get(FINGERPRINT_PARTS);
    }

    /** The application that owns the job (its main class); {@code null} when unknown. */
    @Nullable
    String owner() {
        return values.get(OWNER);
    }

    /** The version of the application that submitted the run ({@code spring.application.version}); {@code null} when unknown. */
    @Nullable
    String version() {
        return values.get(VERSION);
    }

    /** The instance that submitted the run; {@code null} when unknown. */
    @Nullable
    String instance() {
        return values.get(INSTANCE);
    }
}
