package io.streamsplit.boot.flink.remote;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remote mode, before the job is submitted: the task slots the job needs against the slots the cluster has
 * ({@code GET /overview}). A job with more parallel subtasks than the cluster has slots is accepted by Flink,
 * shows RUNNING with some of its tasks, writes nothing, and fails with {@code NoResourceAvailableException}
 * only after Flink's slot request timeout (5 minutes); this says so in one WARN at once, with the numbers and
 * the settings that fix it. Not a refusal: TaskManagers may still be on their way (Kubernetes, the autoscaler).
 */
public final class ClusterSlots {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterSlots.class);

    /**
     * What the cluster said of its slots.
     *
     * @param total task slots of all TaskManagers
     * @param free slots no job holds
     * @param taskManagers TaskManagers registered
     */
    public record Slots(int total, int free, int taskManagers) {}

    private ClusterSlots() {}

    /**
     * The slots a job of {@code graph} holds when it runs: per slot sharing group, its largest parallelism (Flink
     * puts one subtask of every operator of a group into one slot), summed over the groups.
     */
    public static int needed(StreamGraph graph) {
        Map<String, Integer> largest = new HashMap<>();
        for (StreamNode node : graph.getStreamNodes()) {
            String group = node.getSlotSharingGroup() == null ? "default" : node.getSlotSharingGroup();
            largest.merge(group, node.getParallelism(), Math::max);
        }
        return largest.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * Logs one WARN when the job of {@code graph} needs more slots than the cluster at {@code restBase}
     * has in all; returns the warning's text, empty when the cluster has enough (or did not say).
     */
    public static Optional<String> warnIfShort(URI restBase, StreamGraph graph) {
        Optional<Slots> slots = read(restBase);
        if (slots.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> warning = shortfall(graph.getJobName(), needed(graph), slots.get(), restBase.getAuthority());
        warning.ifPresent(text -> LOG.warn("{}", text));
        return warning;
    }

    /** The warning for a job that needs {@code needed} slots on a cluster with {@code slots}; empty when enough. */
    static Optional<String> shortfall(String jobName, int needed, Slots slots, String where) {
        if (needed <= slots.total()) {
            return Optional.empty();
        }
        return Optional.of("Flink job '" + jobName + "' needs " + needed + " task slots (its parallelism,"
                + " streamsplit.flink.parallelism) but the Flink cluster at " + where + " has " + slots.total()
                + " in all (" + slots.free() + " free, " + slots.taskManagers() + " TaskManager"
                + (slots.taskManagers() == 1 ? "" : "s") + "): the job's tasks wait for slots and it makes no"
                + " progress until the cluster has them. Start more TaskManagers, raise taskmanager.numberOfTaskSlots"
                + " in the cluster's config.yaml, or set streamsplit.flink.parallelism to at most " + slots.total()
                + ".");
    }

    private static Optional<Slots> read(URI restBase) {
        try {
            HttpResponse<String> response = PreflightRest.get(restBase, "/overview");
            if (response.statusCode() != 200) {
                return Optional.empty();
            }
            JsonNode overview = new ObjectMapper().readTree(response.body());
            if (!overview.has("slots-total")) {
                return Optional.empty();
            }
            return Optional.of(new Slots(
                    overview.path("slots-total").asInt(),
                    overview.path("slots-available").asInt(),
                    overview.path("taskmanagers").asInt()));
        } catch (IOException e) {
            LOG.debug("Could not read the task slots of the Flink cluster at {}: {}", restBase, e.toString());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
