package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.job.cluster.FakeFlinkRest.Answer;
import io.streamsplit.boot.job.state.JobIdentity;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How the next generation of the job is submitted when other instances of the application submit too, against a
 * REST API that refuses a job id as Flink's does: a duplicate of a run it lists is a lost race; a duplicate of a
 * run it no longer lists (it has forgotten ended runs it still refuses) makes every instance jump ahead alike.
 */
class RunSubmitterTest {

    private static final String JOB = "orders";
    private static final JobFingerprint.Parts FINGERPRINT = new JobFingerprint.Parts("ops", "conf", "jars");

    private final JobIdentity identity = JobIdentity.of(JOB);
    private volatile String refusal =
            "org.apache.flink.runtime.client.DuplicateJobSubmissionException: Job has" + " already been submitted.";
    private volatile boolean refusedRunListed = true;
    private volatile long listedGeneration = 2;
    private FakeFlinkRest cluster;
    private RunSubmitter submitter;

    @BeforeEach
    void startCluster() {
        cluster = FakeFlinkRest.start((method, path) -> {
            if (method.equals("POST") && path.equals("/jobs")) {
                return Answer.error(500, refusal);
            }
            if (method.equals("GET") && path.equals("/jobs/overview")) {
                JobID listed = identity.jobId(listedGeneration);
                return Answer.ok("{\"jobs\":[{\"jid\":\"" + listed + "\",\"name\":\"" + JOB
                        + "\",\"state\":\"FINISHED\",\"start-time\":1,\"end-time\":2}]}");
            }
            if (method.equals("GET") && path.startsWith("/jobs/") && refusedRunListed) {
                return Answer.ok("{\"jid\":\"" + path.substring("/jobs/".length()) + "\",\"name\":\"" + JOB
                        + "\",\"state\":\"RUNNING\",\"start-time\":1}");
            }
            return null;
        });
        Configuration configuration = cluster.configuration();
        configuration.set(DeploymentOptions.TARGET, "remote");
        submitter = new RunSubmitter(
                new ClusterJobs(cluster.client(), identity),
                new ClusterConnection(configuration, getClass().getClassLoader()),
                identity,
                "com.example.Application",
                "1.0.0",
                "the test's cluster");
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    @Test
    void aGenerationAnotherInstanceSubmittedFirstIsALostRaceAndTheNextTryIsTheNextGeneration() throws Exception {
        assertThat(submitter.submit(RunSubmitterTest::graph, FINGERPRINT, 3, null, ClusterRun.How.SUBMITTED))
                .as("no run of its own: the caller looks at the cluster again and adopts the other instance's")
                .isEmpty();
        assertThat(cluster.requests()).contains("POST /jobs", "GET /jobs/" + identity.jobId(3));
        assertThat(submitter.nextGeneration(3)).isEqualTo(4);
    }

    @Test
    void aRefusedGenerationTheClusterNoLongerListsMakesEveryInstanceJumpAheadAlike() throws Exception {
        refusedRunListed = false;

        assertThat(submitter.submit(RunSubmitterTest::graph, FINGERPRINT, 5, null, ClusterRun.How.SUBMITTED))
                .isEmpty();

        // it lists up to generation 2 and refused 5 as forgotten: jump to 2 * 5 - (2 + 1) + 1 = 8, the same in
        // every instance that met the same refusal
        assertThat(submitter.nextGeneration(listedGeneration)).isEqualTo(8);
        assertThat(submitter.nextGeneration(9))
                .as("a higher listed generation still wins")
                .isEqualTo(10);
    }

    @Test
    void anyOtherRefusalIsAFailureAsTheClusterSaidIt() {
        refusal = "Could not upload the job's jars: No space left on device";

        assertThatThrownBy(
                        () -> submitter.submit(RunSubmitterTest::graph, FINGERPRINT, 1, null, ClusterRun.How.SUBMITTED))
                .hasStackTraceContaining("No space left on device");
        assertThat(submitter.nextGeneration(1)).isEqualTo(2);
    }

    private static StreamGraph graph() {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment();
        environment.fromSequence(1, 2).sinkTo(new DiscardingSink<>());
        return environment.getStreamGraph();
    }
}
