package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.job.cluster.FakeFlinkRest.Answer;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedCheckpointPolicy;
import io.streamsplit.boot.job.state.RunSettings;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * What a running application does and says when its cluster changes under it, against a REST API that
 * answers as Flink's does: a cluster that answers with errors is not answering (a WARN at the second
 * look, an INFO when it answers again; health DOWN once the grace period is over); a run cancelled
 * outside the application is left stopped with one WARN; a run of the job's name that another
 * application's labels claim is refused with one ERROR. Nothing is changed on the cluster: only GETs.
 */
@ExtendWith(OutputCaptureExtension.class)
class ClusterJobKeeperTest {

    private static final String JOB = "kept";
    private static final JobFingerprint.Parts FINGERPRINT = new JobFingerprint.Parts("ops", "conf", "jars");
    private static final String OWNER = "com.example.Application";

    private final JobID run = JobIdentity.of(JOB).jobId(1);
    private volatile int overviewStatus = 200;
    private volatile String state = "RUNNING";
    private volatile long endTime = -1;
    private volatile String owner = OWNER;
    private FakeFlinkRest cluster;

    @BeforeEach
    void startCluster() {
        cluster = FakeFlinkRest.start((method, path) -> {
            if (path.equals("/jobs/overview")) {
                return overviewStatus != 200
                        ? Answer.error(overviewStatus, "Service temporarily unavailable")
                        : Answer.ok("{\"jobs\":[{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\",\"state\":\"" + state
                                + "\",\"start-time\":1,\"end-time\":" + endTime + "}]}");
            }
            if (path.equals("/jobs/" + run + "/config")) {
                return Answer.ok("{\"jid\":\"" + run + "\",\"execution-config\":{\"user-config\":" + labels() + "}}");
            }
            return null;
        });
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    @Test
    void aClusterThatAnswersWithErrorsIsNotAnsweringSaidOnceAndDownAfterTheGrace(CapturedOutput output) {
        try (ClusterJobKeeper keeper = keeper()) {
            keeper.lookOnce();
            assertThat(keeper.status().runSeenActive()).isTrue();
            assertThat(keeper.status().problem(Instant.now(), Duration.ofSeconds(30), "the cluster"))
                    .isNull();

            overviewStatus = 503;
            keeper.lookOnce();
            keeper.lookOnce();
            keeper.lookOnce();
            ClusterJobKeeper.Status seen = keeper.status();
            assertThat(seen.notAnswering()).contains("503");
            assertThat(seen.problem(Instant.now(), Duration.ofSeconds(30), "the cluster"))
                    .as("within the grace period: not DOWN yet")
                    .isNull();
            assertThat(seen.unreachableFor(Instant.now())).startsWith("not answering for");
            assertThat(seen.problem(Instant.now().plusSeconds(31), Duration.ofSeconds(30), "the cluster"))
                    .startsWith("the cluster has not answered for 3");
            assertThat(output.toString().lines().filter(line -> line.contains("has not answered since")))
                    .as("one WARN for the outage")
                    .hasSize(1)
                    .allMatch(line -> line.contains("WARN"));

            overviewStatus = 200;
            keeper.lookOnce();
            assertThat(keeper.status().notAnsweringSince()).isNull();
            assertThat(output).contains("answers again, after");
        }
        assertThat(cluster.requests()).allMatch(request -> request.startsWith("GET "));
    }

    @Test
    void aRunCancelledOutsideTheApplicationIsLeftStoppedWithOneWarning(CapturedOutput output) {
        try (ClusterJobKeeper keeper = keeper()) {
            keeper.lookOnce();
            state = "CANCELED";
            endTime = System.currentTimeMillis() - 120_000; // longer ago than a replacing run takes
            keeper.lookOnce();
            keeper.lookOnce();

            assertThat(keeper.status().decision()).isInstanceOf(JobDecision.LeaveStopped.class);
            assertThat(keeper.status().problem(Instant.now(), Duration.ofSeconds(30), "the cluster"))
                    .contains("cancelled outside the application", "restart the application");
            assertThat(output.toString().lines().filter(line -> line.contains("was cancelled outside")))
                    .hasSize(1)
                    .allMatch(line -> line.contains("WARN"));
        }
        assertThat(cluster.requests()).allMatch(request -> request.startsWith("GET "));
    }

    @Test
    void aRunAnotherApplicationClaimsIsRefusedWithOneErrorAndLeftAlone(CapturedOutput output) {
        try (ClusterJobKeeper keeper = keeper()) {
            keeper.lookOnce();
            owner = "com.example.Other";
            keeper.lookOnce();
            keeper.lookOnce();

            assertThat(keeper.status().problem(Instant.now(), Duration.ofSeconds(30), "the cluster"))
                    .contains("belongs to another application, com.example.Other");
            assertThat(output.toString().lines().filter(line -> line.contains("belongs to another application")))
                    .hasSize(1)
                    .allMatch(line -> line.contains("ERROR") && line.contains("streamsplit.flink.job-name"));
        }
        assertThat(cluster.requests()).allMatch(request -> request.startsWith("GET "));
    }

    private ClusterJobKeeper keeper() {
        ClusterJobController controller = new ClusterJobController(
                cluster.client(),
                cluster.configuration(),
                getClass().getClassLoader(),
                JOB,
                new RunSettings(UpgradeMode.SAVEPOINT, null, Duration.ofSeconds(30)),
                OWNER,
                "the cluster",
                RetainedCheckpointPolicy.ALWAYS);
        ClusterRun attached =
                new ClusterRun(new NoClusterJobClient(run), 1, ClusterRun.How.SUBMITTED, "fp", "fp", "1@here", null);
        return new ClusterJobKeeper(
                controller,
                Duration.ofHours(1), // the test takes each look itself
                attached,
                () -> {
                    throw new AssertionError("nothing is submitted");
                },
                FINGERPRINT,
                run -> {},
                () -> false,
                () -> false);
    }

    private String labels() {
        Map<String, String> values =
                new LinkedHashMap<>(JobLabels.of(JOB, FINGERPRINT, owner, null).values());
        return values.entrySet().stream()
                .map(entry -> "\"" + entry.getKey() + "\":\"" + entry.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }

    /** The client of a run the keeper follows: it only gives the run's id (the keeper reads the cluster itself). */
    private record NoClusterJobClient(JobID id) implements org.apache.flink.core.execution.JobClient {

        @Override
        public JobID getJobID() {
            return id;
        }

        @Override
        public java.util.concurrent.CompletableFuture<org.apache.flink.api.common.JobStatus> getJobStatus() {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> cancel() {
            throw new UnsupportedOperationException("the keeper must not cancel");
        }

        @Override
        public java.util.concurrent.CompletableFuture<String> stopWithSavepoint(
                boolean drain, String directory, org.apache.flink.core.execution.SavepointFormatType type) {
            throw new UnsupportedOperationException("the keeper must not stop");
        }

        @Override
        public java.util.concurrent.CompletableFuture<String> triggerSavepoint(
                String directory, org.apache.flink.core.execution.SavepointFormatType type) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.concurrent.CompletableFuture<Map<String, Object>> getAccumulators() {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.concurrent.CompletableFuture<org.apache.flink.api.common.JobExecutionResult>
                getJobExecutionResult() {
            throw new UnsupportedOperationException();
        }
    }
}
