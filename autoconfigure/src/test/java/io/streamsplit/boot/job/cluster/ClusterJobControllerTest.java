package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.flink.FlinkRestClient;
import io.streamsplit.boot.autoconfigure.flink.RetainedCheckpointPolicy;
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
            } else if (path.equals("/jobs/" + run + "/config")) {
                // the first two reads: the sparse view Flink serves before the run has initialized
                body = configReads.incrementAndGet() <= 2
                        ? "{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\"}"
                        : "{\"jid\":\"" + run + "\",\"name\":\"" + JOB + "\",\"execution-config\":{\"user-config\":"
                                + labels() + "}}";
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

    private ClusterJobController controller() {
        URI uri = URI.create("http://localhost:" + cluster.getAddress().getPort());
        Configuration configuration = new Configuration();
        configuration.set(RestOptions.ADDRESS, "localhost");
        configuration.set(RestOptions.PORT, cluster.getAddress().getPort());
        return new ClusterJobController(
                new FlinkRestClient(() -> uri),
                configuration,
                getClass().getClassLoader(),
                JOB,
                new FlinkProperties(),
                OWNER,
                "the test's cluster",
                RetainedCheckpointPolicy.ALWAYS);
    }

    private String labels() {
        Map<String, String> values =
                new LinkedHashMap<>(JobLabels.of(JOB, FINGERPRINT, OWNER).values());
        values.put(JobLabels.INSTANCE, "4242@other-host");
        return values.entrySet().stream()
                .map(entry -> "\"" + entry.getKey() + "\":\"" + entry.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }
}
