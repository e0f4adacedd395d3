package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.ResultTable;
import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JobManager of a session cluster without high availability dies under a running exactly-once job
 * ({@code kill -9}) and a fresh one answers at the same address later, as a restarted JobManager pod: the
 * fresh one knows no job. Two instances of the application run, each its own JVM, with the README's
 * configuration plus remote mode and checkpoint storage. They put the job back from its newest retained
 * checkpoint, one run between them, every id once downstream; then the JobManager dies for good and
 * health goes DOWN, naming the cluster, once the grace period is over, with one WARN. CI: {@value #CI_IDS}
 * ids at {@value #CI_RATE}/s, the JobManager away {@value #CI_AWAY_SECONDS} s; the table:
 * {@code mvn -o verify -pl autoconfigure -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=JobManagerRestartIT -Djmrestart.ids=30000 -Djmrestart.rate=1000 -Djmrestart.away=20
 * -Djmrestart.grace=30}.
 */
class JobManagerRestartIT {

    private static final Logger LOG = LoggerFactory.getLogger(JobManagerRestartIT.class);
    private static final int CI_IDS = 4_000;
    private static final int CI_RATE = 500;
    private static final int CI_AWAY_SECONDS = 6;
    private static final int IDS = Integer.getInteger("jmrestart.ids", CI_IDS);
    private static final int RATE = Integer.getInteger("jmrestart.rate", CI_RATE);
    private static final int AWAY = Integer.getInteger("jmrestart.away", CI_AWAY_SECONDS);
    private static final int GRACE = Integer.getInteger("jmrestart.grace", 10);
    private static final Duration START = Duration.ofSeconds(120);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");
    private static final String JOB = "jm-restart";
    private static final String PUT_BACK = "was no longer on";
    private static final String NOT_ANSWERING = "has not answered since";

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static StandaloneFlinkCluster cluster;
    private static final ResultTable TABLE = new ResultTable(
            "what happens",
            "in",
            "out",
            "lost",
            "duplicated",
            "jobs running afterwards",
            "job back after the JobManager answered",
            "health while it was away");
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startCluster() {
        cluster = SharedFlinkCluster.forJobManagerRestarts(StandaloneFlinkCluster.builder())
                .start();
    }

    @AfterAll
    static void stopCluster() {
        TABLE.log(LOG, "JobManager restart table (" + IDS + " ids at " + RATE + "/s, JobManager away " + AWAY + " s)");
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aRestartedJobManagerGetsTheJobBackAndALostOneMakesHealthDown() throws Exception {
        String input = JOB + "-in";
        String output = JOB + "-out";
        KAFKA.broker().createTopic(input, 4);
        KAFKA.broker().createTopic(output, 2);
        Path work = Path.of("target", "tmp", JOB).toAbsolutePath();
        org.springframework.util.FileSystemUtils.deleteRecursively(work.toFile());
        List<AppProcess> apps = new ArrayList<>();
        try (IdTraffic traffic = new IdTraffic(KAFKA.bootstrapServers(), input, output, 2)) {
            for (String name : List.of("a1", "a2")) {
                apps.add(AppProcess.start(name, work, ClusterIdsApplication.class, args(work)));
            }
            for (AppProcess app : apps) {
                await().atMost(START)
                        .until(() -> app.log().contains(ClusterLifecycleIT.SUBMITTED)
                                || app.log().contains(ClusterLifecycleIT.ADOPTED));
            }
            String first = activeRun();
            CompletableFuture<Void> sending = traffic.send(0, IDS, RATE);
            await().atMost(START).until(() -> traffic.sent() >= IDS / 3);

            cluster.killJobManager();
            List<String> healthWhileAway = new CopyOnWriteArrayList<>();
            long away = System.nanoTime();
            while (System.nanoTime() - away < TimeUnit.SECONDS.toNanos(AWAY)) {
                healthWhileAway.add(health(apps.get(0)).path("status").asText());
                Thread.sleep(500);
            }
            cluster.startJobManager();
            long answered = System.nanoTime();
            String second = await().atMost(START).until(() -> ActiveRuns.running(cluster, JOB), run -> run != null);
            double back = (System.nanoTime() - answered) / 1e9;
            List<String> putBack = apps.stream()
                    .filter(app -> app.log().contains(PUT_BACK))
                    .map(AppProcess::name)
                    .toList();
            assertThat(second).as("the job runs again, as the next generation").isNotEqualTo(first);
            assertThat(healthWhileAway)
                    .as("health while the JobManager was away")
                    .doesNotContain("UP");
            sending.get(2, TimeUnit.MINUTES);

            IdTraffic.Tally tally = traffic.awaitAll(IDS, Duration.ofSeconds(120));
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> traffic.tally(IDS).equals(traffic.tally(IDS)));
            tally = traffic.tally(IDS);
            List<String> active = activeRuns();
            TABLE.add("| JobManager `kill -9`, a fresh one at the same address %d s later, two instances | %d | %d | %d"
                            .formatted(AWAY, tally.in(), tally.out(), tally.lost())
                    + " | %d | %d | %.1f s (put back by %s) | %s |"
                            .formatted(
                                    tally.duplicated(),
                                    active.size(),
                                    back,
                                    putBack,
                                    healthWhileAway.stream().distinct().toList()));
            assertThat(active).as("one run of the job").containsExactly(second);
            assertThat(putBack)
                    .as("the instances that put the job back (one submitted it)")
                    .isNotEmpty();
            assertThat(tally.exact()).as("every id exactly once: %s", tally).isTrue();

            java.time.LocalTime lostAt = java.time.LocalTime.now();
            cluster.killJobManager();
            long lost = System.nanoTime();
            JsonNode down = await().atMost(Duration.ofSeconds(GRACE + 30))
                    .until(
                            () -> health(apps.get(0)),
                            health -> health.path("status").asText().equals("DOWN"));
            double downAfter = (System.nanoTime() - lost) / 1e9;
            String reason = down.path("components")
                    .path("streamsplit")
                    .path("details")
                    .path("reason")
                    .asText();
            assertThat(reason).contains("Flink cluster at localhost:" + cluster.restPort(), "has not answered for");
            assertThat(downAfter).as("DOWN once the grace period is over").isGreaterThanOrEqualTo(GRACE - 1.0);
            for (AppProcess app : apps) {
                List<String> warnings = app.log()
                        .lines()
                        .filter(line -> line.contains(NOT_ANSWERING))
                        .toList();
                // the first outage may end before a second look fails (a blip of one look is not warned of)
                assertThat(warnings)
                        .as("at most one WARN per outage in %s", app.name())
                        .hasSizeBetween(1, 2);
                assertThat(warnings.stream()
                                .filter(line -> !java.time.LocalTime.parse(line.substring(0, 12))
                                        .isBefore(lostAt)))
                        .as("one WARN in %s for the cluster gone for good", app.name())
                        .hasSize(1)
                        .allMatch(line -> line.contains("Flink cluster at localhost:" + cluster.restPort()));
            }
            TABLE.add("| the JobManager gone for good (grace %d s) | | | | | | | DOWN after %.1f s: %s |"
                    .formatted(GRACE, downAfter, reason));
        } finally {
            apps.forEach(AppProcess::close);
        }
    }

    private List<String> args(Path work) {
        List<String> args = ClusterIdsApplication.remoteArgs(JOB, KAFKA.bootstrapServers(), cluster.restPort(), work);
        args.addAll(List.of(
                "--server.port=0",
                "--management.endpoints.web.exposure.include=health",
                "--management.endpoint.health.show-details=always",
                "--streamsplit.health.unreachable-grace=" + GRACE + "s"));
        return args;
    }

    private JsonNode health(AppProcess app) {
        Matcher port = PORT.matcher(app.log());
        if (!port.find()) {
            return JSON.createObjectNode().put("status", "NO_PORT");
        }
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create("http://localhost:" + port.group(1) + "/actuator/health"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(response.body());
        } catch (Exception e) {
            return JSON.createObjectNode().put("status", "NO_ANSWER");
        }
    }

    private static String activeRun() {
        return ActiveRuns.one(cluster, JOB, START);
    }

    private static List<String> activeRuns() {
        return ActiveRuns.of(cluster, JOB);
    }
}
