package io.streamsplit.boot.flink.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.junit.jupiter.api.Test;

/**
 * A job with more parallel subtasks than a real standalone cluster has task slots (the remote tests' shared
 * cluster) is told at once, with the numbers and the settings that fix it, instead of running with some of its
 * tasks and failing after Flink's five-minute slot request timeout; one that fits is not.
 */
class ClusterSlotsIT {

    private static final Pattern SLOTS = Pattern.compile("\"slots-total\"\\s*:\\s*(\\d+)");

    @Test
    void aJobNeedingMoreSlotsThanTheClusterHasGetsOneWarningNamingTheFix() {
        StandaloneFlinkCluster cluster = SharedFlinkCluster.get();
        URI rest = cluster.restAddress();
        Matcher total = SLOTS.matcher(cluster.get("/overview"));
        assertThat(total.find()).isTrue();
        int slots = Integer.parseInt(total.group(1));

        assertThat(ClusterSlots.warnIfShort(rest, graph("words", slots + 1, false)))
                .hasValueSatisfying(warning -> assertThat(warning)
                        .contains(
                                "Flink job 'words' needs " + (slots + 1) + " task slots",
                                "has " + slots + " in all",
                                "TaskManagers)",
                                "taskmanager.numberOfTaskSlots",
                                "streamsplit.flink.parallelism to at most " + slots));
        assertThat(ClusterSlots.warnIfShort(rest, graph("words", slots, false)))
                .as("one subtask of every operator shares a slot")
                .isEmpty();
        assertThat(ClusterSlots.warnIfShort(rest, graph("words", slots, true)))
                .as("an operator in a slot sharing group of its own needs slots of its own")
                .isPresent();
    }

    private static StreamGraph graph(String name, int parallelism, boolean ownGroup) {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment();
        environment.setParallelism(parallelism);
        var mapped = environment.fromData(1, 2, 3).map(i -> i + 1);
        if (ownGroup) {
            mapped.slotSharingGroup("own");
        }
        mapped.sinkTo(new DiscardingSink<>());
        StreamGraph graph = environment.getStreamGraph();
        graph.setJobName(name);
        return graph;
    }
}
