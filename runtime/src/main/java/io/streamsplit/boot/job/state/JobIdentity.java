package io.streamsplit.boot.job.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.flink.api.common.JobID;

/**
 * The stable identity of an application's job on a cluster. Every run of the job (a generation: the
 * first submission, each upgrade, each start from the endpoint) gets a job id of the same family:
 * the first half of the id is derived from the job name, the second half counts the generation, so
 * {@code 3f2a…c1d0 0000000000000004} is generation 4 of the job. Two instances that submit the
 * same generation submit the same id, and Flink accepts only the first.
 *
 * @param name the job name ({@code streamsplit.flink.job-name}, else {@code spring.application.name})
 * @param family the first half of every job id of this job
 */
public record JobIdentity(String name, long family) {

    /** The identity of the job named {@code name}. */
    public static JobIdentity of(String name) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(("streamsplit-job:" + name).getBytes(StandardCharsets.UTF_8));
            return new JobIdentity(name, ByteBuffer.wrap(hash).getLong());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The id of generation {@code generation} (1 for the first run). */
    public JobID jobId(long generation) {
        // Flink prints the lower part first: the family, then the generation
        return new JobID(family, generation);
    }

    /** Whether {@code id} is a run of this job. */
    public boolean owns(JobID id) {
        return id.getLowerPart() == family;
    }

    /** The generation of {@code id}, a run of this job. */
    public long generation(JobID id) {
        return id.getUpperPart();
    }

    /** How Flink names the savepoint directories of this job's runs: {@code savepoint-<first 6 hex digits>-}. */
    public String savepointPrefix() {
        return "savepoint-" + jobId(0).toHexString().substring(0, 6) + "-";
    }
}
