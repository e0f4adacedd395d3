package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.cluster.FakeFlinkRest.Answer;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a run on the cluster is ended for an upgrade, against a REST API that answers as Flink's does: the run's
 * state, one answer per request in order (the last repeats), its checkpoints, and a stop or cancel the cluster
 * accepts or refuses.
 */
class RunStopperTest {

    private static final String JOB = "orders";
    private static final Duration TIMEOUT = Duration.ofMillis(1500);

    private final JobID run = JobIdentity.of(JOB).jobId(3);
    private final Queue<JobStatus> states = new ConcurrentLinkedQueue<>();
    private volatile JobStatus last = JobStatus.RUNNING;
    private volatile int stopStatus = 500;
    private volatile String checkpoints = "{\"latest\":{\"completed\":null}}";
    private FakeFlinkRest cluster;
    private RunStopper stopper;

    @BeforeEach
    void startCluster() {
        cluster = FakeFlinkRest.start((method, path) -> {
            if (method.equals("GET") && path.equals("/jobs/" + run)) {
                JobStatus next = states.poll();
                last = next != null ? next : last;
                return Answer.ok("{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\",\"state\":\"" + last
                        + "\",\"start-time\":1}");
            }
            if (method.equals("GET") && path.equals("/jobs/" + run + "/checkpoints")) {
                return Answer.ok(checkpoints);
            }
            if (method.equals("POST") && path.equals("/jobs/" + run + "/stop")) {
                return Answer.error(stopStatus, "Savepoint failed: the job is restarting");
            }
            if (method.equals("PATCH") && path.equals("/jobs/" + run)) {
                return new Answer(202, "{}");
            }
            return null;
        });
        JobIdentity identity = JobIdentity.of(JOB);
        stopper = new RunStopper(
                new ClusterJobs(cluster.client(), identity),
                new ClusterConnection(cluster.configuration(), getClass().getClassLoader()),
                identity,
                TIMEOUT,
                "the test's cluster");
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    @Test
    void aRunThatIsStillStartingIsWaitedForAndThenCountsAsSettled() throws Exception {
        states.addAll(List.of(JobStatus.INITIALIZING, JobStatus.RUNNING));

        assertThat(stopper.awaitSettled(listed(JobStatus.CREATED))).isTrue();
        assertThat(states).as("the run was asked for until it ran").isEmpty();
    }

    @Test
    void aRunThatIsBeingCancelledIsNotSettledAndItsEndIsWaitedFor() throws Exception {
        states.addAll(List.of(JobStatus.CANCELLING, JobStatus.CANCELED));

        assertThat(stopper.awaitSettled(listed(JobStatus.CANCELLING))).isFalse();
        assertThat(last).as("the stopper waited until the run had ended").isEqualTo(JobStatus.CANCELED);
    }

    @Test
    void aSavepointThatFailsBecauseAnotherInstanceEndedTheRunIsALostRaceNotAnError() throws Exception {
        states.addAll(List.of(JobStatus.FINISHED));

        assertThat(stopper.stopWithSavepoint(listed(JobStatus.RUNNING), "file:///savepoints"))
                .as("no state of its own: the other instance's run is what this one adopts")
                .isEmpty();
        assertThat(cluster.requests()).contains("POST /jobs/" + run + "/stop");
    }

    @Test
    void aSavepointThatFailsWhileTheRunKeepsRunningFailsNamingTheUpgradeModeAndTheDirectory() {
        last = JobStatus.RUNNING;

        assertThatThrownBy(() -> stopper.stopWithSavepoint(listed(JobStatus.RUNNING), "file:///savepoints"))
                .isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
                    assertThat(e.getProperty()).isEqualTo("streamsplit.flink.upgrade-mode");
                    assertThat(e.getValue()).isEqualTo("savepoint");
                    assertThat(e.getProblem())
                            .contains("'" + JOB + "' (" + run + ")", "the test's cluster", "keeps running unchanged");
                    assertThat(e.getAction()).contains("file:///savepoints", "upgrade-mode=last-state");
                });
    }

    @Test
    void aLastStateUpgradeOfARunWithoutACompletedCheckpointIsRefusedBeforeAnythingStops() {
        assertThatThrownBy(() -> stopper.requireRetainedCheckpoint(listed(JobStatus.RUNNING), UpgradeMode.LAST_STATE))
                .isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
                    assertThat(e.getProperty()).isEqualTo("streamsplit.flink.upgrade-mode");
                    assertThat(e.getValue()).isEqualTo("last-state");
                    assertThat(e.getAction()).contains("streamsplit.flink.checkpointing.storage");
                });
        assertThat(cluster.requests()).noneMatch(request -> request.startsWith("POST") || request.startsWith("PATCH"));
    }

    @Test
    void aRunWithACompletedCheckpointCanBeUpgradedFromIt() throws Exception {
        checkpoints = "{\"latest\":{\"completed\":{\"id\":7,\"external_path\":\"file:///chk/" + run
                + "/chk-7\",\"latest_ack_timestamp\":1}}}";

        stopper.requireRetainedCheckpoint(listed(JobStatus.RUNNING), UpgradeMode.LAST_STATE);
    }

    @Test
    void aCancelIsSentAndWaitedOutUntilTheRunHasEnded() throws Exception {
        states.addAll(List.of(JobStatus.RUNNING, JobStatus.CANCELLING, JobStatus.CANCELED));

        stopper.cancel(listed(JobStatus.RUNNING));

        assertThat(cluster.requests()).contains("PATCH /jobs/" + run);
        assertThat(last).isEqualTo(JobStatus.CANCELED);
    }

    @Test
    void aRunThatDoesNotEndInTimeIsAnErrorNamingTheShutdownTimeout() {
        last = JobStatus.CANCELLING;

        assertThatThrownBy(() -> stopper.awaitEnded(run))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("did not stop within " + TIMEOUT)
                .hasMessageContaining("streamsplit.flink.shutdown.timeout");
    }

    private ClusterJob listed(JobStatus state) {
        return new ClusterJob(run, JOB, state, Instant.EPOCH, null);
    }
}
