package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.streamsplit.boot.autoconfigure.flink.FlinkConfigurationMapper;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedCheckpointPolicy;
import io.streamsplit.boot.job.state.RunSettings;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
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

    private final JobID run = JobIdentity.of(JOB).jobId(1);
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger configReads = new AtomicInteger();
    private volatile int sparseConfigReads = 2;
    private volatile JobFingerprint.Parts runFingerprint = FINGERPRINT;
    private volatile String clusterConfig =
            "[{\"key\":\"execution.checkpointing.dir\",\"value\":\"file:///shared/checkpoints\"}]";
    private HttpServer cluster;

    @BeforeEach
    void startCluster() throws IOException {
        cluster = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        cluster.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            requests.add(exchange.getRequestMethod() + " " + path);
            String body;
            int status = 200;
            if (path.equals("/jobs/overview")) {
                body = "{\"jobs\":[{\"jid\":\"" + run + "\",\"name\":\"" + JOB
                        + "\",\"state\":\"RUNNING\",\"start-time\":1}]}";
            } else if (path.equals("/jobmanager/config")) {
                body = clusterConfig;
            } else if (path.equals("/jobs/" + run + "/config")) {
                // the first two reads: the sparse view Flink serves before the run has initialized
                body = configReads.incrementAndGet() <= sparseConfigReads
                        ? "{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\"}"
                        : "{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\",\"execution-config\":{\"user-config\":"
                                + labels() + "}}";
            } else if (path.equals("/jobs/" + run)) {
                body = "{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\",\"state\":\"RUNNING\",\"start-time\":1}";
            } else if (path.equals("/jobs/" + run + "/checkpoints")) {
                body = "{\"latest\":{\"completed\":null,\"savepoint\":null}}"; // none completed yet
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
    }

    @AfterEach
    void stopCluster() {
        cluster.stop(0);
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
        assertThat(requests)
                .as("no stop, savepoint or cancel was sent")
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
        assertThat(requests)
                .as("nothing but the cluster's configuration was read")
                .containsExactly("GET /jobmanager/config");
    }

    /** With last-state and checkpoints nowhere but in the JobManager's memory, the second deploy would fail. */
    @Test
    void lastStateWithNoCheckpointStorageAnywhereIsRefusedAtTheFirstDeploy() {
        clusterConfig = "[]";
        FlinkProperties flink = new FlinkProperties();
        flink.setUpgradeMode(UpgradeMode.LAST_STATE);

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
                () -> controller(FlinkConfigurationMapper.runSettings(flink))
                        .reconcile(
                                () -> {
                                    throw new AssertionError("nothing is submitted");
                                },
                                FINGERPRINT));

        assertThat(refused)
                .hasMessageContaining("streamsplit.flink.checkpointing.storage")
                .hasMessageContaining("last-state");
        assertThat(requests).containsExactly("GET /jobmanager/config");
    }

    /**
     * An upgrade with last-state of a run that has not retained a checkpoint yet is refused, naming the
     * setting, and the run is left alone: no cancel, no submission.
     */
    @Test
    void aLastStateUpgradeWithoutARetainedCheckpointLeavesTheRunAlone() {
        sparseConfigReads = 0;
        runFingerprint = new JobFingerprint.Parts("other-ops", "conf", "jars");
        FlinkProperties flink = new FlinkProperties();
        flink.setUpgradeMode(UpgradeMode.LAST_STATE);

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
                () -> controller(FlinkConfigurationMapper.runSettings(flink))
                        .reconcile(
                                () -> {
                                    throw new AssertionError("nothing is submitted");
                                },
                                FINGERPRINT));

        assertThat(refused)
                .hasMessageContaining("streamsplit.flink.upgrade-mode")
                .hasMessageContaining("no retained checkpoint")
                .hasMessageContaining("keeps running unchanged");
        assertThat(requests).as("nothing was cancelled or submitted").allMatch(request -> request.startsWith("GET "));
    }

    private ClusterJobController controller() {
        return controller(FlinkConfigurationMapper.runSettings(new FlinkProperties()));
    }

    private ClusterJobController controller(RunSettings runs) {
        URI uri = URI.create("http://localhost:" + cluster.getAddress().getPort());
        Configuration configuration = new Configuration();
        configuration.set(RestOptions.ADDRESS, "localhost");
        configuration.set(RestOptions.PORT, cluster.getAddress().getPort());
        return new ClusterJobController(
                new FlinkRestClient(() -> uri),
                configuration,
                getClass().getClassLoader(),
                JOB,
                runs,
                OWNER,
                "the test's cluster",
                RetainedCheckpointPolicy.ALWAYS);
    }

    private String labels() {
        Map<String, String> values =
                new LinkedHashMap<>(JobLabels.of(JOB, runFingerprint, OWNER).values());
        values.put(JobLabels.INSTANCE, "4242@other-host");
        return values.entrySet().stream()
                .map(entry -> "\"" + entry.getKey() + "\":\"" + entry.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }
}
