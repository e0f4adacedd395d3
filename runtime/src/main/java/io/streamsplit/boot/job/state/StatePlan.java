package io.streamsplit.boot.job.state;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What starting a job from a checkpoint or savepoint would do to the state in it, decided before anything
 * is stopped or submitted ({@link StatePlanner} makes it): every operator that holds state there is kept
 * by an operator of the new job, dropped (no operator has its uid any more), or in conflict (Flink would
 * refuse the restore: a changed max parallelism). {@link #require} acts on it: a plan that drops state
 * needs {@value #ALLOW_DROP}; an incompatible one is refused.
 *
 * <pre>{@code
 * import io.streamsplit.boot.job.state.StatePlan;
 * import io.streamsplit.boot.job.state.StatePlanner;
 *
 * StatePlan plan = StatePlanner.plan(streamGraph, "file:///checkpoints/…/chk-42", "checkpoint 42");
 * log.info(plan.describe());            // one block: the verdict and each operator's state
 * plan.require(false, "orders");        // throws when it would drop or break state
 * }</pre>
 *
 * @param snapshot what the plan was made against, in words ("checkpoint 42 of run …")
 * @param verdict the plan's verdict
 * @param operators the snapshot's operators that hold state, and what happens to each
 * @param added how many operators of the new job are not in the snapshot (they start without state)
 * @param note why the verdict is {@link Verdict#UNKNOWN}, or {@code null}
 */
public record StatePlan(
        String snapshot,
        Verdict verdict,
        List<Operator> operators,
        int added,
        @Nullable String note) {

    /** The setting that lets a start drop state no operator of the new job claims (Flink's own). */
    public static final String ALLOW_DROP =
            "streamsplit.flink.configuration.execution.state-recovery.ignore-unclaimed-state";

    /** What a start from the snapshot would do to its state. */
    public enum Verdict {
        /** The new job has exactly the snapshot's operators: all state is kept. */
        UNCHANGED,
        /** Every operator's state is kept; operators were added, or stateless ones removed. */
        COMPATIBLE,
        /** State of some operators would be dropped: no operator of the new job has their id (uid). */
        DROPS_STATE,
        /** Flink would refuse to restore the snapshot into the new job (max parallelism changed). */
        INCOMPATIBLE,
        /** The snapshot could not be read by the application: Flink checks it when the job restores. */
        UNKNOWN;

        /** {@code drops-state}: as logs and {@code /actuator/streamsplit} show it. */
        public String word() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** What happens to one operator's state. */
    public enum Outcome {
        KEPT,
        DROPPED,
        CONFLICT
    }

    /**
     * One operator that holds state in the snapshot.
     *
     * @param id its operator id (hex), as Flink's metadata and errors name it
     * @param uid the uid it had when the snapshot was taken, {@code null} when Flink did not record one
     * @param name its name then, or {@code null}
     * @param state what it holds, in words ("keyed state, 14 KB"; "Kafka source state: topics [orders]")
     * @param outcome what the new job does with it
     * @param why the conflict, or {@code null}
     */
    public record Operator(
            String id,
            @Nullable String uid,
            @Nullable String name,
            String state,
            Outcome outcome,
            @Nullable String why) {

        /** {@code 'tag' (uid tag, 3f2a…)}: the operator as a person knows it. */
        public String label() {
            String shown = name != null ? "'" + name + "'" : "operator " + id;
            return shown + " (" + (uid != null ? "uid '" + uid + "', " : "") + "id " + id + ")";
        }
    }

    /** A plan that could not be made: the snapshot was not readable from the application. */
    public static StatePlan unknown(String snapshot, String why) {
        return new StatePlan(snapshot, Verdict.UNKNOWN, List.of(), 0, why);
    }

    /** The operators whose state would be dropped. */
    public List<Operator> dropped() {
        return operators.stream().filter(o -> o.outcome() == Outcome.DROPPED).toList();
    }

    /** The operators in conflict. */
    public List<Operator> conflicts() {
        return operators.stream().filter(o -> o.outcome() == Outcome.CONFLICT).toList();
    }

    /** One block for the log: the verdict, then each stateful operator and what happens to it. */
    public String describe() {
        StringBuilder text = new StringBuilder("State plan against ")
                .append(snapshot)
                .append(": ")
                .append(verdict.word());
        if (note != null) {
            text.append(" (").append(note).append(')');
        }
        long kept = operators.size() - dropped().size() - conflicts().size();
        if (verdict != Verdict.UNKNOWN) {
            text.append(" — ")
                    .append(kept)
                    .append(" operator(s) keep their state, ")
                    .append(dropped().size())
                    .append(" dropped, ")
                    .append(conflicts().size())
                    .append(" in conflict, ")
                    .append(added)
                    .append(" new");
        }
        for (Operator operator : operators) {
            text.append(System.lineSeparator())
                    .append("  ")
                    .append(operator.outcome().name().toLowerCase(Locale.ROOT))
                    .append(": ")
                    .append(operator.label())
                    .append(", ")
                    .append(operator.state());
            if (operator.why() != null) {
                text.append(" — ").append(operator.why());
            }
        }
        return text.toString();
    }

    /** The plan as {@code /actuator/streamsplit} shows it. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("against", snapshot);
        map.put("verdict", verdict.word());
        if (note != null) {
            map.put("note", note);
        }
        List<Map<String, Object>> listed = new ArrayList<>();
        for (Operator operator : operators) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("operator", operator.label());
            entry.put("state", operator.state());
            entry.put("outcome", operator.outcome().name().toLowerCase(Locale.ROOT));
            if (operator.why() != null) {
                entry.put("why", operator.why());
            }
            listed.add(entry);
        }
        map.put("operators", listed);
        map.put("newOperators", added);
        return map;
    }

    /**
     * Refuses a plan that would break or silently drop state, before anything is stopped or submitted: an
     * incompatible plan always; one that drops state unless {@code dropAllowed} ({@value #ALLOW_DROP}).
     *
     * @param job the job's name, for the message
     * @throws InvalidStreamSplitConfigurationException naming the setting and the operators
     */
    public void require(boolean dropAllowed, String job) {
        if (verdict == Verdict.INCOMPATIBLE) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.job-name",
                    job,
                    "the new version of Flink job '" + job + "' cannot start from " + snapshot + ": "
                            + String.join(
                                    "; ",
                                    conflicts().stream()
                                            .map(o -> o.label() + ": " + o.why())
                                            .toList())
                            + ". Nothing was stopped or submitted",
                    "give the operators the max parallelism they had (streamsplit.flink.configuration.pipeline.max-parallelism or"
                            + " setMaxParallelism), or start without the state: streamsplit.flink.upgrade-mode=stateless on"
                            + " a cluster, or a new spring.application.name");
        }
        if (verdict == Verdict.DROPS_STATE && !dropAllowed) {
            throw new InvalidStreamSplitConfigurationException(
                    ALLOW_DROP,
                    "false",
                    "the new version of Flink job '" + job + "' has no operator for the state of "
                            + String.join(
                                    ", ",
                                    dropped().stream()
                                            .map(o -> o.label() + " (" + o.state() + ")")
                                            .toList())
                            + " in " + snapshot + "; starting it would drop that state. Nothing was stopped or"
                            + " submitted",
                    "give the operators back the uid(...) they had; or, to drop that state on purpose, set "
                            + ALLOW_DROP + "=true for this start");
        }
    }
}
