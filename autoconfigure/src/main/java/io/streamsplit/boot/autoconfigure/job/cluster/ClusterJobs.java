package io.streamsplit.boot.autoconfigure.job.cluster;

import io.streamsplit.boot.autoconfigure.flink.FlinkRestClient;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * What the cluster's REST API says about the runs of one job: which run, what state, which labels the
 * application stored with it, and the checkpoints and savepoints it completed. Terminated runs stay
 * listed for as long as the cluster keeps them ({@code jobstore.expiration-time}, an hour by default).
 */
final class ClusterJobs {

    private final FlinkRestClient rest;
    private final JobIdentity identity;

    ClusterJobs(FlinkRestClient rest, JobIdentity identity) {
        this.rest = rest;
        this.identity = identity;
    }

    /** The cluster's jobs as it lists them now. */
    Snapshot read() throws IOException, InterruptedException {
        List<ClusterJob> runs = new ArrayList<>();
        List<ClusterJob> strangers = new ArrayList<>();
        for (JsonNode job : rest.get("/jobs/overview").path("jobs")) {
            ClusterJob listed = new ClusterJob(
                    JobID.fromHexString(job.path("jid").asText()),
                    job.path("name").asText(),
                    JobStatus.valueOf(job.path("state").asText()),
                    Instant.ofEpochMilli(job.path("start-time").asLong()));
            if (identity.owns(listed.id())) {
                runs.add(listed);
            } else if (listed.name().equals(identity.name()) && listed.active()) {
                strangers.add(listed);
            }
        }
        runs.sort(Comparator.comparingLong(run -> identity.generation(run.id())));
        return new Snapshot(identity, List.copyOf(runs), List.copyOf(strangers));
    }

    /** One run by id, or empty when the cluster does not know it (never submitted, or forgotten). */
    Optional<ClusterJob> find(JobID id) throws IOException, InterruptedException {
        JsonNode job = rest.find("/jobs/" + id);
        if (job == null) {
            return Optional.empty();
        }
        return Optional.of(new ClusterJob(
                id,
                job.path("name").asText(),
                JobStatus.valueOf(job.path("state").asText()),
                Instant.ofEpochMilli(job.path("start-time").asLong())));
    }

    /** The labels the application stored with run {@code id} ({@link JobLabels}); empty when it has none. */
    JobLabels labels(JobID id) throws IOException, InterruptedException {
        JsonNode config = rest.find("/jobs/" + id + "/config");
        Map<String, String> labels = new LinkedHashMap<>();
        if (config != null) {
            config.path("execution-config").path("user-config").fields().forEachRemaining(entry -> {
                if (entry.getKey().startsWith(JobLabels.PREFIX)) {
                    labels.put(entry.getKey(), entry.getValue().asText());
                }
            });
        }
        return new JobLabels(labels);
    }

    /** The newest checkpoint or savepoint run {@code id} completed and kept, if the cluster still knows it. */
    Optional<RetainedState> latestState(JobID id) throws IOException, InterruptedException {
        JsonNode latest;
        try {
            latest = rest.get("/jobs/" + id + "/checkpoints").path("latest");
        } catch (IOException noCheckpointing) {
            return Optional.empty(); // checkpointing off, or the run is gone
        }
        String from = "from the cluster's record of run " + id;
        return Optional.ofNullable(RetainedState.newer(
                state(latest.path("completed"), "checkpoint", from),
                state(latest.path("savepoint"), "savepoint", from)));
    }

    /** The running job's latest completed checkpoint, for {@code last-state}: empty without one that is kept. */
    Optional<RetainedState> latestCheckpoint(JobID id) throws IOException, InterruptedException {
        try {
            JsonNode latest = rest.get("/jobs/" + id + "/checkpoints").path("latest");
            return Optional.ofNullable(
                    state(latest.path("completed"), "checkpoint", "from the cluster's record of run " + id));
        } catch (IOException noCheckpointing) {
            return Optional.empty();
        }
    }

    /** The cluster's own default savepoint directory, if it has one. */
    Optional<String> savepointDirectory() throws IOException, InterruptedException {
        for (JsonNode entry : rest.get("/jobmanager/config")) {
            if (CheckpointingOptions.SAVEPOINT_DIRECTORY
                    .key()
                    .equals(entry.path("key").asText())) {
                return Optional.of(entry.path("value").asText());
            }
        }
        return Optional.empty();
    }

    private static @Nullable RetainedState state(JsonNode stats, String kind, String from) {
        String path = stats.path("external_path").asText("");
        // checkpoints kept only in the JobManager's memory have no path a new run could start from
        if (stats.isMissingNode() || stats.isNull() || path.isEmpty() || path.startsWith("<")) {
            return null;
        }
        return new RetainedState(
                path,
                kind,
                stats.path("id").asLong(-1),
                Instant.ofEpochMilli(stats.path("latest_ack_timestamp").asLong()),
                from);
    }

    /**
     * The runs of the job the cluster lists, oldest generation first, and jobs of the same name that
     * are not runs of it (submitted by an older StreamSplit or by another program).
     */
    record Snapshot(JobIdentity identity, List<ClusterJob> runs, List<ClusterJob> strangers) {

        /** Runs that are not finished, cancelled or failed for good, newest generation first. */
        List<ClusterJob> active() {
            return runs.stream()
                    .filter(ClusterJob::active)
                    .sorted(Comparator.comparingLong((ClusterJob run) -> identity.generation(run.id()))
                            .reversed())
                    .toList();
        }

        /** The highest generation the cluster lists, 0 when none. */
        long lastGeneration() {
            return runs.stream()
                    .mapToLong(run -> identity.generation(run.id()))
                    .max()
                    .orElse(0);
        }
    }
}
