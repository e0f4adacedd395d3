package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedState;
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
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.util.TimeUtils;
import org.jspecify.annotations.Nullable;

/**
 * What the cluster's REST API says about the runs of one job: which run, what state, which labels the
 * application stored with it, and the checkpoints and savepoints it completed. Terminated runs stay
 * listed for as long as the cluster keeps them ({@code jobstore.expiration-time}, an hour by default).
 */
final class ClusterJobs {

    private final FlinkRestClient rest;
    private final JobIdentity identity;
    private long statisticsCacheMillis = -1;

    ClusterJobs(FlinkRestClient rest, JobIdentity identity) {
        this.rest = rest;
        this.identity = identity;
    }

    /**
     * The cluster as it lists the job now, with the labels of its newest active run; a cluster that does not
     * answer, or answers with an error, is a view that says so (the caller decides what that means).
     */
    ClusterView view() throws InterruptedException {
        Instant now = Instant.now();
        JsonNode overview;
        try {
            overview = rest.get("/jobs/overview");
        } catch (IOException | RuntimeException e) {
            return ClusterView.notAnswering(describe(e), now);
        }
        List<ClusterJob> runs = new ArrayList<>();
        List<ClusterJob> strangers = new ArrayList<>();
        for (JsonNode job : overview.path("jobs")) {
            ClusterJob listed = job(JobID.fromHexString(job.path("jid").asText()), job);
            if (identity.owns(listed.id())) {
                runs.add(listed);
            } else if (listed.name().equals(identity.name()) && listed.active()) {
                strangers.add(listed);
            }
        }
        List<ClusterJob> active = runs.stream()
                .filter(ClusterJob::active)
                .sorted(Comparator.comparingLong((ClusterJob run) -> identity.generation(run.id()))
                        .reversed())
                .toList();
        ClusterView.ActiveRun newest = null;
        if (!active.isEmpty()) {
            ClusterJob run = active.get(0);
            try {
                newest = new ClusterView.ActiveRun(run, identity.generation(run.id()), labels(run.id()));
            } catch (IOException | RuntimeException e) {
                return ClusterView.notAnswering(describe(e), now);
            }
        }
        long lastGeneration = runs.stream()
                .mapToLong(run -> identity.generation(run.id()))
                .max()
                .orElse(0);
        return new ClusterView(
                null,
                List.copyOf(strangers),
                newest,
                active.size() > 1 ? active.subList(1, active.size()) : List.of(),
                List.copyOf(runs),
                lastGeneration,
                now);
    }

    /** "ConnectException: Connection refused", "Flink REST … answered 503: …": why the cluster did not answer. */
    static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    /** One run by id, or empty when the cluster does not know it (never submitted, or forgotten). */
    Optional<ClusterJob> find(JobID id) throws IOException, InterruptedException {
        JsonNode job = rest.find("/jobs/" + id);
        return job == null ? Optional.empty() : Optional.of(job(id, job));
    }

    /** A job as {@code /jobs/overview} or {@code /jobs/<id>} shows it. */
    private static ClusterJob job(JobID id, JsonNode job) {
        long ended = job.path("end-time").asLong(-1);
        return new ClusterJob(
                id,
                job.path("name").asText(),
                JobStatus.valueOf(job.path("state").asText()),
                Instant.ofEpochMilli(job.path("start-time").asLong()),
                ended > 0 ? Instant.ofEpochMilli(ended) : null);
    }

    /** Whether the cluster runs with high availability: a restarted JobManager then recovers its jobs itself. */
    boolean recoversJobs() throws IOException, InterruptedException {
        String type = jobManagerConfig().getOrDefault("high-availability.type", "NONE");
        return !type.isBlank() && !type.equalsIgnoreCase("NONE");
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
        awaitFinalStatistics(id);
        return latest(id, true);
    }

    /** The newest savepoint of running run {@code id}, as the cluster lists it. */
    Optional<RetainedState> latestSavepoint(JobID id) throws IOException, InterruptedException {
        return latest(id, false);
    }

    private Optional<RetainedState> latest(JobID id, boolean checkpoints) throws IOException, InterruptedException {
        JsonNode latest;
        try {
            latest = rest.get("/jobs/" + id + "/checkpoints").path("latest");
        } catch (IOException noCheckpointing) {
            return Optional.empty(); // checkpointing off, or the run is gone
        }
        String from = "from the cluster's record of run " + id;
        RetainedState savepoint = state(latest.path("savepoint"), RetainedState.Kind.SAVEPOINT, from);
        return Optional.ofNullable(
                checkpoints
                        ? RetainedState.newer(
                                state(latest.path("completed"), RetainedState.Kind.CHECKPOINT, from), savepoint)
                        : savepoint);
    }

    /** The running job's latest completed checkpoint, for {@code last-state}: empty without one that is kept. */
    Optional<RetainedState> latestCheckpoint(JobID id) throws IOException, InterruptedException {
        awaitFinalStatistics(id);
        try {
            JsonNode latest = rest.get("/jobs/" + id + "/checkpoints").path("latest");
            return Optional.ofNullable(state(
                    latest.path("completed"), RetainedState.Kind.CHECKPOINT, "from the cluster's record of run " + id));
        } catch (IOException noCheckpointing) {
            return Optional.empty();
        }
    }

    /**
     * Flink's REST API caches a job's checkpoint statistics ({@code rest.cache.checkpoint-statistics.timeout},
     * else {@code web.refresh-interval}, 3 s by default). Read within that time after a run ended, they can
     * still name a checkpoint that the run's last one replaced and deleted (a run cancelled for a
     * {@code last-state} upgrade while it checkpoints every second): the next run then fails to start from a
     * path that is gone. For an ended run this waits until its final statistics are the ones served.
     */
    private void awaitFinalStatistics(JobID id) throws IOException, InterruptedException {
        JsonNode job = rest.find("/jobs/" + id);
        long endedAt = job == null ? -1 : job.path("end-time").asLong(-1);
        if (endedAt <= 0) {
            return; // running (its statistics are as fresh as the cluster serves them) or unknown
        }
        long cache = statisticsCacheMillis() + 250;
        long wait = Math.min(cache, endedAt + cache - System.currentTimeMillis());
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private long statisticsCacheMillis() throws IOException, InterruptedException {
        if (statisticsCacheMillis < 0) {
            Map<String, String> config = jobManagerConfig();
            String value = config.getOrDefault(
                    RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT.key(),
                    config.getOrDefault("web.refresh-interval", "3 s"));
            try {
                statisticsCacheMillis = TimeUtils.parseDuration(value).toMillis();
            } catch (IllegalArgumentException unreadable) {
                statisticsCacheMillis = 3_000;
            }
        }
        return statisticsCacheMillis;
    }

    /** The JobManager's configuration: the cluster's own defaults (checkpoint storage, savepoint directory). */
    Configuration clusterConfiguration() throws IOException, InterruptedException {
        return Configuration.fromMap(jobManagerConfig());
    }

    /** The JobManager's configuration ({@code GET /jobmanager/config}) by key. */
    private Map<String, String> jobManagerConfig() throws IOException, InterruptedException {
        Map<String, String> config = new LinkedHashMap<>();
        for (JsonNode entry : rest.get("/jobmanager/config")) {
            config.put(entry.path("key").asText(), entry.path("value").asText());
        }
        return config;
    }

    private static @Nullable RetainedState state(JsonNode stats, RetainedState.Kind kind, String from) {
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
}
