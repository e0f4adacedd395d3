package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
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
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile JobStatus last = JobStatus.RUNNING;
    private volatile int stopStatus = 500;
    private volatile String checkpoints = "{\"latest\":{\"completed\":null}}";
    private HttpServer cluster;
    private RunStopper stopper;

    @BeforeEach
    void startCluster() throws IOException {
        cluster = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        cluster.createContext("/", exchange -> {
            // Flink's own client (stop, cancel) asks under the API version, the application's REST client without
            String path = exchange.getRequestURI().getPath().replaceFirst("^/v1/", "/");
            String method = exchange.getRequestMethod();
            requests.add(method + " " + path);
            int status = 200;
            String body;
            if (method.equals("GET") && path.equals("/jobs/" + run)) {
                JobStatus next = states.poll();
                last = next != null ? next : last;
                body = "{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\",\"state\":\"" + last + "\",\"start-time\":1}";
            } else if (method.equals("GET") && path.equals("/jobs/" + run + "/checkpoints")) {
                body = checkpoints;
            } else if (method.equals("POST") && path.equals("/jobs/" + run + "/stop")) {
                status = stopStatus;
                body = "{\"errors\":[\"Savepoint failed: the job is restarting\"]}";
            } else if (method.equals("PATCH") && path.equals("/jobs/" + run)) {
                status = 202;
                body = "{}";
            } else {
                status = 404;
                body = "{\"errors\":[\"not found\"]}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        cluster.start();
        URI uri = URI.create("http://localhost:" + cluster.getAddress().getPort());
        Configuration configuration = new Configuration();
        configuration.set(RestOptions.ADDRESS, "localhost");
        configuration.set(RestOptions.PORT, cluster.getAddress().getPort());
        JobIdentity identity = JobIdentity.of(JOB);
        stopper = new RunStopper(
                new ClusterJobs(new FlinkRestClient(() -> uri), identity),
                new ClusterConnection(configuration, getClass().getClassLoader()),
                identity,
                TIMEOUT,
                "the test's cluster");
    }

    @AfterEach
    void stopCluster() {
        cluster.stop(0);
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
                .isNull();
        assertThat(requests).contains("POST /jobs/" + run + "/stop");
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
        assertThat(requests).noneMatch(request -> request.startsWith("POST") || request.startsWith("PATCH"));
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

        assertThat(requests).contains("PATCH /jobs/" + run);
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
