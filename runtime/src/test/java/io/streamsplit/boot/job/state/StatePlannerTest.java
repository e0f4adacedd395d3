package io.streamsplit.boot.job.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.connector.kafka.source.savepoint.SavepointSources;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.state.KeyGroupRangeOffsets;
import org.apache.flink.runtime.state.KeyGroupsStateHandle;
import org.apache.flink.runtime.state.memory.ByteStreamStateHandle;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan of a start from a snapshot that held state for uids {@code numbers} (a source's coordinator state),
 * {@code count} (keyed state, max parallelism 128) and {@code print} (none), against the jobs a developer
 * changes it into.
 */
class StatePlannerTest {

    @TempDir
    Path work;

    @Test
    void theSameJobKeepsEveryState() throws IOException {
        StatePlan plan = StatePlanner.plan(job("count", -1, false), snapshot(), "checkpoint 7");

        assertThat(plan.verdict()).isEqualTo(StatePlan.Verdict.UNCHANGED);
        assertThat(plan.operators())
                .extracting(StatePlan.Operator::uid, StatePlan.Operator::outcome)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("numbers", StatePlan.Outcome.KEPT),
                        org.assertj.core.groups.Tuple.tuple("count", StatePlan.Outcome.KEPT));
        assertThatCode(() -> plan.require(false, "orders")).doesNotThrowAnyException();
    }

    @Test
    void anAddedOperatorIsCompatible() throws IOException {
        StatePlan plan = StatePlanner.plan(job("count", -1, true), snapshot(), "checkpoint 7");

        assertThat(plan.verdict()).isEqualTo(StatePlan.Verdict.COMPATIBLE);
        assertThat(plan.added()).isEqualTo(1);
        assertThat(plan.dropped()).isEmpty();
    }

    @Test
    void aRenamedUidDropsItsStateAndIsRefusedUnlessAllowed() throws IOException {
        StatePlan plan = StatePlanner.plan(job("count-v2", -1, false), snapshot(), "checkpoint 7");

        assertThat(plan.verdict()).isEqualTo(StatePlan.Verdict.DROPS_STATE);
        assertThat(plan.dropped()).singleElement().satisfies(dropped -> {
            assertThat(dropped.uid()).isEqualTo("count");
            assertThat(dropped.state()).startsWith("keyed state");
        });
        assertThat(plan.describe()).contains("drops-state", "dropped: 'count' (uid 'count'");
        assertThatThrownBy(() -> plan.require(false, "orders"))
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining(StatePlan.ALLOW_DROP)
                .hasMessageContaining("uid 'count'")
                .hasMessageContaining("Nothing was stopped or submitted");
        assertThatCode(() -> plan.require(true, "orders")).doesNotThrowAnyException();
    }

    @Test
    void aChangedMaxParallelismIsIncompatibleEvenWithDropsAllowed() throws IOException {
        StatePlan plan = StatePlanner.plan(job("count", 256, false), snapshot(), "checkpoint 7");

        assertThat(plan.verdict()).isEqualTo(StatePlan.Verdict.INCOMPATIBLE);
        assertThat(plan.conflicts())
                .singleElement()
                .satisfies(conflict -> assertThat(conflict.why()).contains("max parallelism was 128 and is now 256"));
        assertThatThrownBy(() -> plan.require(true, "orders"))
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("cannot start from checkpoint 7");
    }

    @Test
    void aRemovedOperatorWithoutStateGoesQuietly() throws IOException {
        StatePlan plan = StatePlanner.plan(job("count", -1, false), snapshot("old-filter"), "checkpoint 7");

        assertThat(plan.verdict()).isEqualTo(StatePlan.Verdict.COMPATIBLE);
        assertThat(plan.dropped()).isEmpty();
    }

    @Test
    void aSnapshotTheApplicationCannotReadIsUnknownAndNotRefused() {
        StatePlan plan =
                StatePlanner.plan(job("count", -1, false), work.resolve("gone").toString(), "checkpoint 7");

        assertThat(plan.verdict()).isEqualTo(StatePlan.Verdict.UNKNOWN);
        assertThat(plan.note()).contains("not readable from the application");
        assertThatCode(() -> plan.require(false, "orders")).doesNotThrowAnyException();
    }

    /** numbers → keyBy → count (keyed, uid {@code countUid}) [→ extra] → print. */
    private static StreamGraph job(String countUid, int countMaxParallelism, boolean extra) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        SingleOutputStreamOperator<Long> count = env.fromSequence(0, 10)
                .uid("numbers")
                .keyBy(n -> n % 2)
                .map(new Identity())
                .uid(countUid);
        if (countMaxParallelism > 0) {
            count.setMaxParallelism(countMaxParallelism);
        }
        DataStream<Long> out = extra ? count.map(new Identity()).uid("extra") : count;
        out.print().uid("print");
        return env.getStreamGraph();
    }

    /** A snapshot of the first version of the job, written as Flink writes one; with more stateless operators. */
    private String snapshot(String... statelessUids) throws IOException {
        List<OperatorState> operators = new ArrayList<>();
        OperatorState numbers = operator("numbers");
        numbers.setCoordinatorState(new ByteStreamStateHandle("enumerator", new byte[] {1, 2, 3}));
        operators.add(numbers);
        OperatorState count = operator("count");
        count.putState(
                0,
                OperatorSubtaskState.builder()
                        .setManagedKeyedState(new KeyGroupsStateHandle(
                                new KeyGroupRangeOffsets(0, 63), new ByteStreamStateHandle("count-0", new byte[2048])))
                        .build());
        operators.add(count);
        operators.add(operator("print"));
        for (String uid : statelessUids) {
            operators.add(operator(uid));
        }
        Path directory = Files.createDirectories(work.resolve("chk-7"));
        try (OutputStream file = Files.newOutputStream(directory.resolve("_metadata"));
                DataOutputStream out = new DataOutputStream(file)) {
            Checkpoints.storeCheckpointMetadata(new CheckpointMetadata(7, operators, List.of()), out);
        }
        return directory.toUri().toString();
    }

    private static OperatorState operator(String uid) {
        OperatorID id = OperatorID.fromJobVertexID(
                org.apache.flink.runtime.jobgraph.JobVertexID.fromHexString(SavepointSources.operatorId(uid)));
        return new OperatorState(uid, uid, id, 2, 128);
    }

    private static final class Identity implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            return value;
        }
    }
}
