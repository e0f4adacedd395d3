package io.streamsplit.boot.job.state;

import io.streamsplit.connector.kafka.source.savepoint.KafkaSourceState;
import io.streamsplit.connector.kafka.source.savepoint.SavepointSources;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamGraphHasherV2;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.util.StringUtils;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the {@link StatePlan} of starting {@code graph} from a checkpoint or savepoint, from the snapshot's
 * metadata (its operators' ids, uids, names, max parallelism and state handles) and the operator ids Flink
 * will give the new job (the same hashes its job graph uses: of the uid, or of the topology where there
 * is none; a {@code setUidHash} counts as well). It applies the rules Flink applies when it restores:
 *
 * <ul>
 *   <li>state of an operator id the new job does not have is dropped (Flink refuses it unless
 *       {@code ignore-unclaimed-state}); an operator that held no state may go;
 *   <li>an operator the new job has must keep the snapshot's max parallelism when it sets one, and may not
 *       run at a parallelism above it.
 * </ul>
 *
 * <p>What only a restore finds (a keyed state whose key or value type changed incompatibly) Flink still
 * reports when the job starts.
 */
public final class StatePlanner {

    private static final Logger LOG = LoggerFactory.getLogger(StatePlanner.class);

    private StatePlanner() {}

    /**
     * Acts on {@code plan} for job {@code job} before anything is stopped or submitted: refuses it as
     * {@link StatePlan#require} says, else logs it as one block (a warning when it drops state).
     *
     * @param dropAllowed {@value StatePlan#ALLOW_DROP}
     * @throws io.streamsplit.boot.config.InvalidStreamSplitConfigurationException when the plan is refused
     */
    public static StatePlan act(StatePlan plan, boolean dropAllowed, String job) {
        plan.require(dropAllowed, job);
        if (plan.verdict() == StatePlan.Verdict.DROPS_STATE) {
            LOG.warn(
                    "Flink job '{}' starts without the state of {} operator(s), as {}=true allows. {}",
                    job,
                    plan.dropped().size(),
                    StatePlan.ALLOW_DROP,
                    plan.describe());
        } else {
            LOG.info("Flink job '{}': {}", job, plan.describe());
        }
        return plan;
    }

    /**
     * The plan of starting {@code graph} from {@code snapshot} (a checkpoint or savepoint path); {@code described}
     * names the snapshot in messages. {@code graph} must be a build of the job that is not submitted: Flink's hasher
     * caches each node's head operator in it, a cache the cluster could not deserialize. A snapshot the application cannot read gives a {@link StatePlan.Verdict#UNKNOWN}
     * plan that says why.
     */
    public static StatePlan plan(StreamGraph graph, String snapshot, String described) {
        CheckpointMetadata metadata;
        try {
            metadata = SavepointSources.metadata(snapshot);
        } catch (IOException | RuntimeException e) {
            return StatePlan.unknown(described, "its metadata is not readable from the application: " + e.getMessage());
        }
        Map<String, KafkaSourceState> kafkaSources = new HashMap<>();
        try {
            SavepointSources.read(metadata).forEach(source -> kafkaSources.put(source.operatorId(), source));
        } catch (IOException | RuntimeException e) {
            // the operators are still planned; a source's state is then described by its kind and size only
        }
        Map<String, StreamNode> nodes = operatorIds(graph);
        Set<StreamNode> matched = new HashSet<>();
        List<StatePlan.Operator> operators = new ArrayList<>();
        boolean statelessGone = false;
        for (OperatorState operator : metadata.getOperatorStates()) {
            String id = operator.getOperatorID().toHexString();
            StreamNode node = nodes.get(id);
            if (node != null) {
                matched.add(node);
            }
            String conflict = node == null ? null : conflict(operator, node, graph);
            if (!holdsState(operator)) {
                statelessGone |= node == null;
                if (conflict == null) {
                    continue;
                }
            }
            StatePlan.Outcome outcome = conflict != null
                    ? StatePlan.Outcome.CONFLICT
                    : node == null ? StatePlan.Outcome.DROPPED : StatePlan.Outcome.KEPT;
            operators.add(new StatePlan.Operator(
                    id,
                    operator.getOperatorUid().orElse(null),
                    operator.getOperatorName().orElse(null),
                    state(operator, kafkaSources.get(id)),
                    outcome,
                    conflict));
        }
        int added = (int) graph.getStreamNodes().stream()
                .filter(node -> !matched.contains(node))
                .count();
        StatePlan.Verdict verdict;
        if (operators.stream().anyMatch(o -> o.outcome() == StatePlan.Outcome.CONFLICT)) {
            verdict = StatePlan.Verdict.INCOMPATIBLE;
        } else if (operators.stream().anyMatch(o -> o.outcome() == StatePlan.Outcome.DROPPED)) {
            verdict = StatePlan.Verdict.DROPS_STATE;
        } else if (added > 0 || statelessGone) {
            verdict = StatePlan.Verdict.COMPATIBLE;
        } else {
            verdict = StatePlan.Verdict.UNCHANGED;
        }
        return new StatePlan(described, verdict, operators, added, null);
    }

    /** Every operator id the new job's operators answer to: the generated one and a {@code setUidHash}. */
    private static Map<String, StreamNode> operatorIds(StreamGraph graph) {
        Map<Integer, byte[]> hashes = new StreamGraphHasherV2().traverseStreamGraphAndGenerateHashes(graph);
        Map<String, StreamNode> ids = new HashMap<>();
        for (StreamNode node : graph.getStreamNodes()) {
            byte[] hash = hashes.get(node.getId());
            if (hash != null) {
                ids.put(new OperatorID(hash).toHexString(), node);
            }
            if (node.getUserHash() != null) {
                ids.put(new OperatorID(StringUtils.hexStringToByte(node.getUserHash())).toHexString(), node);
            }
        }
        return ids;
    }

    /** Why Flink would refuse to give {@code operator}'s state to {@code node}, or {@code null}. */
    private static @Nullable String conflict(OperatorState operator, StreamNode node, StreamGraph graph) {
        int before = operator.getMaxParallelism();
        int now = node.getMaxParallelism();
        if (now > 0 && now != before) {
            return "its max parallelism was " + before + " and is now " + now
                    + "; keyed state is split into max-parallelism key groups, which cannot change";
        }
        int parallelism = node.getParallelism() > 0
                ? node.getParallelism()
                : graph.getExecutionConfig().getParallelism();
        if (now <= 0 && parallelism > before) {
            return "its parallelism " + parallelism + " is above the snapshot's max parallelism " + before;
        }
        return null;
    }

    private static boolean holdsState(OperatorState operator) {
        if (operator.getCoordinatorState() != null) {
            return true;
        }
        for (OperatorSubtaskState subtask : operator.getStates()) {
            if (subtask.hasState()) {
                return true;
            }
        }
        return false;
    }

    /** What the operator holds, in words. */
    private static String state(OperatorState operator, @Nullable KafkaSourceState kafka) {
        if (kafka != null) {
            return "Kafka source state of topics " + kafka.topics() + " ("
                    + kafka.partitions().size() + " partitions)";
        }
        boolean keyed = false;
        boolean list = false;
        for (OperatorSubtaskState subtask : operator.getStates()) {
            keyed |= !subtask.getManagedKeyedState().isEmpty()
                    || !subtask.getRawKeyedState().isEmpty();
            list |= !subtask.getManagedOperatorState().isEmpty()
                    || !subtask.getRawOperatorState().isEmpty();
        }
        List<String> kinds = new ArrayList<>();
        if (keyed) {
            kinds.add("keyed state");
        }
        if (list) {
            kinds.add("operator state");
        }
        if (operator.getCoordinatorState() != null) {
            kinds.add("coordinator state");
        }
        if (kinds.isEmpty()) {
            kinds.add("no state");
        }
        return String.join(" and ", kinds) + ", " + size(operator.getStateSize());
    }

    private static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return (bytes / 1024) + " KB";
        }
        return (bytes / (1024 * 1024)) + " MB";
    }
}
