package io.streamsplit.boot.flink.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Test;

class EmbeddedFlinkClusterTest {

    @Test
    void aClusterStartedAheadOfTheJobIsTheOneTheJobGetsAndClosesWithTheContext() throws Exception {
        EmbeddedFlinkCluster cluster = oneSlotCluster();

        cluster.startInBackground();

        await().atMost(Duration.ofSeconds(60)).until(cluster::isRunning);
        var started = cluster.miniCluster();
        assertThat(cluster.miniCluster()).as("the job's submission reuses it").isSameAs(started);

        cluster.destroy();

        assertThat(started.isRunning()).isFalse();
        assertThatThrownBy(cluster::miniCluster)
                .as("a late submission (or a late background start) must not bring a closed cluster back")
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed with its application context");
    }

    /**
     * A context that fails on a configuration mistake closes the cluster it began starting: the close waits for that
     * start (about a second) and closes what it started, so that nothing of the closed context keeps starting,
     * logging into the next context's log or holding ports.
     */
    @Test
    void aContextClosedWhileTheClusterStartsLeavesNothingStartingOrRunning() throws Exception {
        EmbeddedFlinkCluster cluster = oneSlotCluster();

        cluster.startInBackground();
        cluster.destroy();

        assertThat(cluster.isStartingInBackground())
                .as("still starting after destroy")
                .isFalse();
        assertThat(cluster.isRunning()).as("running after destroy").isFalse();
    }

    private static EmbeddedFlinkCluster oneSlotCluster() {
        Configuration configuration = new Configuration();
        configuration.set(TaskManagerOptions.NUM_TASK_SLOTS, 1);
        // any free port, as the starter's mapping gives it: Flink's default 8081 may be another test JVM's
        configuration.set(RestOptions.BIND_PORT, "0");
        return new EmbeddedFlinkCluster(configuration);
    }
}
