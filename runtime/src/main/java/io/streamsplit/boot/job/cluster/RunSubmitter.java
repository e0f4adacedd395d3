package io.streamsplit.boot.job.cluster;

import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedState;
import io.streamsplit.connector.kafka.source.savepoint.CheckpointedOffsets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.client.JobInitializationException;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.ExceptionUtils;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits the job's next generation, and notices when another instance submitted it first: the
 * cluster refuses a job id it has seen, and a refused id it no longer lists means the cluster has
 * forgotten older runs, so the next try jumps ahead, the same way in every instance.
 */
final class RunSubmitter {

    private static final Logger LOG = LoggerFactory.getLogger(RunSubmitter.class);

    private final ClusterJobs jobs;
    private final ClusterConnection connection;
    private final JobIdentity identity;
    private final String owner;
    private final @Nullable String version;
    private final String target;

    RunSubmitter(
            ClusterJobs jobs,
            ClusterConnection connection,
            JobIdentity identity,
            String owner,
            @Nullable String version,
            String target) {
        this.version = version;
        this.jobs = jobs;
        this.connection = connection;
        this.identity = identity;
        this.owner = owner;
        this.target = target;
    }

    /** The lowest generation not yet refused by the cluster as one it has forgotten. */
    private volatile long generationFloor;

    /**
     * Submits generation {@code generation} (from {@code from} when not {@code null}); empty when another instance
     * submitted it first (a lost race: look at the cluster again).
     */
    Optional<ClusterRun> submit(
            Supplier<StreamGraph> graph,
            JobFingerprint.Parts fingerprint,
            long generation,
            @Nullable RetainedState from,
            ClusterRun.How how)
            throws Exception {
        JobID id = identity.jobId(generation);
        JobClient client;
        try {
            client = connection.submit(
                    graph.get(),
                    id,
                    from == null ? null : from.path(),
                    JobLabels.of(identity.name(), fingerprint, owner, version));
        } catch (JobInitializationException e) {
            throw new IllegalStateException(
                    "Flink job '" + identity.name() + "' (" + id + ") could not start on " + target
                            + (from == null ? "" : " from " + from.describe()) + ": " + RunStopper.rootCause(e)
                            + (from == null
                                    ? ""
                                    : ". If the job's operators changed incompatibly, give them the uids they had,"
                                            + " or start from the sources' starting offsets with"
                                            + " streamsplit.flink.upgrade-mode=stateless"),
                    e);
        } catch (Exception e) {
            if (!ExceptionUtils.stringifyException(e).contains("Duplicate")) {
                throw e;
            }
            if (jobs.find(id).isEmpty()) {
                // refused although not listed: a run the cluster has forgotten (it refuses ended ids for as long as it
                // runs). Jump ahead, twice as far each time, the same way in every instance, so they still meet
                long listed = jobs.view().lastGeneration() + 1;
                generationFloor = Math.max(generationFloor, 2 * generation - listed + 1);
            }
            LOG.info(
                    "Flink job '{}' generation {} ({}) was submitted by another instance first; looking again",
                    identity.name(),
                    generation,
                    id);
            return Optional.empty();
        }
        LOG.info(
                "Submitted Flink job '{}' ({}, generation {}) to {} {} (fingerprint {})",
                identity.name(),
                id,
                generation,
                target,
                from == null ? "without state: sources start from their starting offsets" : "from " + from.describe(),
                fingerprint.fingerprint());
        if (from != null) {
            logOffsets(from);
        }
        return Optional.of(new ClusterRun(
                client,
                generation,
                how,
                fingerprint.fingerprint(),
                fingerprint.fingerprint(),
                JobLabels.thisInstance(),
                from));
    }

    /** Where the sources continue, read from the state's metadata when the application can reach it. */
    private void logOffsets(RetainedState from) {
        Map<TopicPartition, Long> offsets;
        try {
            offsets = CheckpointedOffsets.read(from.path());
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not read the offsets in {} from the application: {}", from.path(), e.toString());
            return;
        }
        Map<String, List<String>> byTopic = new TreeMap<>();
        offsets.forEach((partition, next) -> byTopic.computeIfAbsent(partition.topic(), t -> new ArrayList<>())
                .add(partition.partition() + "@" + next));
        LOG.info(
                "Flink job '{}' continues reading where the {} left off: {}",
                identity.name(),
                from.kind().word(),
                byTopic.isEmpty()
                        ? "no partition was assigned yet"
                        : byTopic.entrySet().stream()
                                .map(topic -> topic.getKey() + " " + topic.getValue())
                                .collect(Collectors.joining(", ")));
    }

    /** The next generation after {@code listed}, the highest the cluster lists, and any it refused as forgotten. */
    long nextGeneration(long listed) {
        return Math.max(listed + 1, generationFloor);
    }
}
