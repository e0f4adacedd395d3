package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.job.cluster.FakeFlinkRest.Answer;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedCheckpointPolicy;
import io.streamsplit.boot.job.state.RunSettings;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an instance does with a run of its job that another instance has just submitted, against a
 * cluster's REST API that answers as Flink does while the run is new: its configuration (where the
 * run's labels are) comes without the user configuration for a while (the job initializing, then
 * the REST cache). The instance waits for the labels and adopts the run; it never takes the run for
 * another version and upgrades it.
 */
class ClusterJobControllerTest {

    private static final String JOB = "labels-lag";
    private static final JobFingerprint.Parts FINGERPRINT = new JobFingerprint.Parts("ops", "conf", "jars");
    private static final String OWNER = "com.example.Application";
    /** streamsplit.flink.shutdown.timeout as it ships (JobSettingsTest checks the mapping). */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final JobID run = JobIdentity.of(JOB).jobId(1);
    private final AtomicInteger configReads = new AtomicInteger();
    private volatile int sparseConfigReads = 2;
    private volatile JobFingerprint.Parts runFingerprint = FINGERPRINT;
    private volatile String clusterConfig =
            "[{\"key\":\"execution.checkpointing.dir\",\"value\":\"file:///shared/checkpoints\"}]";
    private FakeFlinkRest cluster;

    @BeforeEach
    void startCluster() {
        cluster = FakeFlinkRest.start((method, path) -> {
            if (path.equals("/jobs/overview")) {
                return Answer.ok("{\"jobs\":[{\"jid\":\"" + run + "\",\"name\":\"" + JOB
                        + "\",\"state\":\"RUNNING\",\"start-time\":1}]}");
            }
            if (path.equals("/jobmanager/config")) {
                return Answer.ok(clusterConfig);
            }
            if (path.equals("/jobs/" + run + "/config")) {
                // the first two reads: the sparse view Flink serves before the run has initialized
                return Answer.ok(
                        configReads.incrementAndGet() <= sparseConfigReads
                                ? "{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\"}"
                                : "{\"jid\":\"" + run + "\",\"name\":\"" + JOB
                                        + "\",\"execution-config\":{\"user-config\":" + labels() + "}}");
            }
            if (path.equals("/jobs/" + run)) {
                return Answer.ok(
                        "{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\",\"state\":\"RUNNING\",\"start-time\":1}");
            }
            if (path.equals("/jobs/" + run + "/checkpoints")) {
                return Answer.ok("{\"latest\":{\"completed\":null,\"savepoint\":null}}"); // none completed yet
            }
            return null;
        });
    }

    /** A job to plan: nothing in these tests restores it. */
    private static org.apache.flink.streaming.api.graph.StreamGraph graph() {
        org.apache.flink.streaming.api.environment.StreamExecutionEnvironment env =
                org.apache.flink.streaming.api.environment.StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSequence(0, 1).print();
        return env.getStreamGraph();
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    @Test
    void aRunWhoseLabelsAreNotShownYetIsAdoptedOnceTheyAreNotUpgraded() throws Exception {
        ClusterRun adopted = controller()
                .reconcile(
                        () -> {
                            throw new AssertionError("nothing is submitted: the run is this application's");
                        },
                        FINGERPRINT);

        assertThat(adopted.how()).isEqualTo(ClusterRun.How.ADOPTED);
        assertThat(adopted.jobId()).isEqualTo(run);
        assertThat(adopted.submittedBy()).isEqualTo("4242@other-host");
        assertThat(configReads)
                .as("the labels were read until the cluster showed them")
                .hasValue(3);
        assertThat(cluster.requests())
                .as("no stop, savepoint or cancel was sent")
                .allMatch(request -> request.startsWith("GET "));
    }

    @Test
    void aDryRunSaysItWouldAdoptTheRunningVersionOrUpgradeAnotherAndChangesNothing() throws Exception {
        sparseConfigReads = 0;
        assertThat(controller().plan(ClusterJobControllerTest::graph, FINGERPRINT))
                .isEqualTo("would adopt run " + run + " (generation 1), which runs this version of the job");

        runFingerprint = new JobFingerprint.Parts("other-ops", "conf", "jars");
        assertThat(controller().plan(ClusterJobControllerTest::graph, FINGERPRINT))
                .isEqualTo("would upgrade run " + run + " (generation 1, another version of the job: operators"
                        + " changed) with upgrade-mode savepoint. State plan against run " + run
                        + ": unknown (no"
                        + " completed checkpoint to compare with yet; Flink checks the state when the new run"
                        + " restores)");
        assertThat(cluster.requests())
                .as("nothing stopped, cancelled or submitted")
                .allMatch(request -> request.startsWith("GET "));
    }

    @Test
    void savepointsGoBesideTheClustersCheckpointStorageWhenNoDirectoryIsSet() throws Exception {
        ClusterJobController controller = controller();
        controller.reconcile(
                () -> {
                    throw new AssertionError("nothing is submitted");
                },
                FINGERPRINT);

        assertThat(controller.savepointDirectory()).isEqualTo("file:///shared/checkpoints/savepoints");
    }

    /**
     * The default upgrade (savepoint) of a job with nowhere to put savepoints would fail at the second deploy,
     * with the first version running and the new pods crash-looping: refused at the first, before anything
     * is submitted.
     */
    @Test
    void theDefaultUpgradeWithNoSavepointDirectoryAnywhereIsRefusedAtTheFirstDeploy() {
        clusterConfig = "[]";

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> controller()
                .reconcile(
                        () -> {
                            throw new AssertionError("nothing is submitted");
                        },
                        FINGERPRINT));

        assertThat(refused)
                .isInstanceOf(io.streamsplit.boot.config.InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("streamsplit.flink.checkpointing.storage")
                .hasMessageContaining("streamsplit.flink.shutdown.savepoint-directory")
                .hasMessageContaining("upgrade-mode");
        assertThat(cluster.requests())
                .as("nothing but the cluster's configuration was read")
                .containsExactly("GET /jobmanager/config");
    }

    /** With last-state and checkpoints nowhere but in the JobManager's memory, the second deploy would fail. */
    @Test
    void lastStateWithNoCheckpointStorageAnywhereIsRefusedAtTheFirstDeploy() {
        clusterConfig = "[]";

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
                () -> controller(new RunSettings(UpgradeMode.LAST_STATE, null, STOP_TIMEOUT))
                        .reconcile(
                                () -> {
                                    throw new AssertionError("nothing is submitted");
                                },
                                FINGERPRINT));

        assertThat(refused)
                .hasMessageContaining("streamsplit.flink.checkpointing.storage")
                .hasMessageContaining("last-state");
        assertThat(cluster.requests()).containsExactly("GET /jobmanager/config");
    }

    /**
     * An upgrade with last-state of a run that has not retained a checkpoint yet is refused, naming the
     * setting, and the run is left alone: no cancel, no submission.
     */
    @Test
    void aLastStateUpgradeWithoutARetainedCheckpointLeavesTheRunAlone() {
        sparseConfigReads = 0;
        runFingerprint = new JobFingerprint.Parts("other-ops", "conf", "jars");

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
                () -> controller(new RunSettings(UpgradeMode.LAST_STATE, null, STOP_TIMEOUT))
                        .reconcile(
                                () -> {
                                    throw new AssertionError("nothing is submitted");
                                },
                                FINGERPRINT));

        assertThat(refused)
                .hasMessageContaining("streamsplit.flink.upgrade-mode")
                .hasMessageContaining("no retained checkpoint")
                .hasMessageContaining("keeps running unchanged");
        assertThat(cluster.requests())
                .as("nothing was cancelled or submitted")
                .allMatch(request -> request.startsWith("GET "));
    }

    private ClusterJobController controller() {
        return controller(new RunSettings(UpgradeMode.SAVEPOINT, null, STOP_TIMEOUT));
    }

    private ClusterJobController controller(RunSettings runs) {
        return new ClusterJobController(
                cluster.client(),
                cluster.configuration(),
                getClass().getClassLoader(),
                JOB,
                runs,
                OWNER,
                "the test's cluster",
                RetainedCheckpointPolicy.ALWAYS);
    }

    private String labels() {
        Map<String, String> values = new LinkedHashMap<>(
                JobLabels.of(JOB, runFingerprint, OWNER, null).values());
        values.put(JobLabels.INSTANCE, "4242@other-host");
        return values.entrySet().stream()
                .map(entry -> "\"" + entry.getKey() + "\":\"" + entry.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }
}
