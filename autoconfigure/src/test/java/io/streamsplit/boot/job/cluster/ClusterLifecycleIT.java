package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.ResultTable;
import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The application's process killed, stopped, doubled and upgraded for real while its exactly-once
 * job runs on a multi-process session cluster: each instance is its own JVM ({@link AppProcess}),
 * the cluster a JobManager and two TaskManager JVMs. Every scenario sends ids at a steady rate and
 * asserts what a read_committed consumer gets: every id exactly once, one job running, and how long
 * the output's last stable offset stood still. CI sends {@value #CI_IDS} ids per scenario at
 * {@value #CI_RATE}/s; the harness run is {@code mvn -o verify -pl autoconfigure -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ClusterLifecycleIT -Dlifecycle.ids=30000
 * -Dlifecycle.rate=1000 -Dtest.jvm.options=} (full JIT), and every run logs the table of docs/deployment.md.
 */
class ClusterLifecycleIT {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterLifecycleIT.class);
    private static final int CI_IDS = 3_000;
    private static final int CI_RATE = 1_000;
    private static final int IDS = Integer.getInteger("lifecycle.ids", CI_IDS);
    private static final int RATE = Integer.getInteger("lifecycle.rate", CI_RATE);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ResultTable TABLE = new ResultTable(
            "what the user does",
            "in",
            "out",
            "lost",
            "duplicated",
            "jobs running afterwards",
            "read_committed stall",
            "longest output gap",
            "time to adopt / upgrade");
    private static final Duration START = Duration.ofSeconds(120);
    static final String SUBMITTED = "Submitted Flink job";
    static final String ADOPTED = "Adopted Flink job";
    static final String UPGRADING = "Upgrading Flink job";

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static StandaloneFlinkCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = SharedFlinkCluster.get();
    }

    @AfterAll
    static void printTable() {
        TABLE.log(LOG, "Lifecycle table (" + IDS + " ids per scenario at " + RATE + "/s)");
    }

    @Test
    void killNineTwiceThenRestartAdoptsTheRunningJob() throws Exception {
        try (Scenario scenario = new Scenario("kill9")) {
            AppProcess first = scenario.app("a1", 1);
            scenario.awaitLine(first, SUBMITTED);
            String jobId = scenario.activeRun();
            CompletableFuture<Void> sending = scenario.traffic.send(0, IDS, RATE);
            List<String> adopt = new ArrayList<>();
            AppProcess current = first;
            for (int kill = 1; kill <= 2; kill++) {
                scenario.awaitSent(IDS * kill / 3);
                current.kill9();
                assertThat(scenario.activeRuns())
                        .as("the job outlives its killed application")
                        .containsExactly(jobId);
                current = scenario.app("a" + (kill + 1), 1);
                adopt.add(String.format("%.1f s", scenario.awaitLine(current, ADOPTED)));
                assertThat(current.log()).doesNotContain(SUBMITTED);
            }
            sending.get(2, TimeUnit.MINUTES);
            scenario.finish("`kill -9` the application mid-stream, start it again (×2)", jobId, "adopt " + adopt);
        }
    }

    /**
     * SIGTERM mid-stream with the default settings: the job keeps running; the rest of the ids arrive while
     * no instance of the application runs, and the job reads and writes them; the next instance adopts
     * the same run, which never restarted.
     */
    @Test
    void sigtermThenInputWhileDownThenRestartAdoptsTheSameRun() throws Exception {
        try (Scenario scenario = new Scenario("sigterm")) {
            AppProcess first = scenario.app("a1", 1);
            scenario.awaitLine(first, SUBMITTED);
            String jobId = scenario.activeRun();
            String startedAt = JSON.readTree(cluster.get("/jobs/" + jobId))
                    .path("start-time")
                    .asText();
            CompletableFuture<Void> sending = scenario.traffic.send(0, IDS / 2, RATE);
            scenario.awaitSent(IDS / 4);
            first.sigterm();
            assertThat(first.log()).contains("keeps running on");
            assertThat(scenario.activeRuns()).containsExactly(jobId);
            sending.get(2, TimeUnit.MINUTES);
            scenario.traffic.send(IDS / 2, IDS, RATE).get(2, TimeUnit.MINUTES);
            assertThat(scenario.traffic.awaitAll(IDS, Duration.ofSeconds(60)).lost())
                    .as("ids sent while no instance ran, written by the job alone")
                    .isZero();
            AppProcess second = scenario.app("a2", 1);
            double adopted = scenario.awaitLine(second, ADOPTED);
            JsonNode job = JSON.readTree(cluster.get("/jobs/" + jobId));
            assertThat(job.path("state").asText()).isEqualTo("RUNNING");
            assertThat(job.path("start-time").asText())
                    .as("the same run, not restarted")
                    .isEqualTo(startedAt);
            scenario.finish(
                    "SIGTERM mid-stream (default settings), input arrives while no instance runs, start again",
                    jobId,
                    "adopt %.1f s, job not restarted".formatted(adopted));
        }
    }

    @Test
    void twoInstancesStartedAtOnceRunOneJob() throws Exception {
        try (Scenario scenario = new Scenario("twins")) {
            AppProcess one = scenario.app("a1", 1);
            AppProcess two = scenario.app("a2", 1);
            scenario.activeRun();
            CompletableFuture<Void> sending = scenario.traffic.send(0, IDS, RATE);
            List<String> outcomes = new ArrayList<>();
            for (AppProcess app : List.of(one, two)) {
                await().atMost(START)
                        .until(() -> app.log().contains(SUBMITTED) || app.log().contains(ADOPTED) || !app.isAlive());
                String log = app.log();
                outcomes.add(
                        log.contains(SUBMITTED)
                                ? "submitted"
                                : log.contains(ADOPTED) ? "adopted" : app.name() + " exited:\n" + app.tail());
            }
            assertThat(outcomes)
                    .as("one instance submits, the other adopts")
                    .containsExactlyInAnyOrder("submitted", "adopted");
            String jobId = scenario.activeRun();
            sending.get(2, TimeUnit.MINUTES);
            scenario.finish("two instances started at once", jobId, String.join(", ", outcomes));
        }
    }

    /**
     * Two instances of version 1, rolled to version 2 (savepoint), then to version 3 (last-state); ids are
     * sent before, during and after each upgrade, so every version writes some of them.
     */
    @Test
    void rollingUpdatesOfTwoInstancesUpgradeTheJobOnceEach() throws Exception {
        try (Scenario scenario = new Scenario("rolling")) {
            AppProcess a1 = scenario.app("v1-a", 1);
            scenario.awaitLine(a1, SUBMITTED);
            AppProcess a2 = scenario.app("v1-b", 1);
            scenario.awaitLine(a2, ADOPTED);
            int chunk = IDS / 5;
            scenario.traffic.send(0, chunk, RATE).get(2, TimeUnit.MINUTES);
            List<String> upgrades = new ArrayList<>();
            List<AppProcess> old = List.of(a1, a2);
            int version = 2;
            for (String mode : List.of("savepoint", "last-state")) {
                String before = scenario.activeRun();
                AppProcess first =
                        scenario.app("v" + version + "-a", version, "--streamsplit.flink.upgrade-mode=" + mode);
                int from = (2 * version - 3) * chunk;
                CompletableFuture<Void> during = scenario.traffic.send(from, from + chunk, RATE);
                scenario.awaitLine(first, UPGRADING + " '" + scenario.job);
                scenario.awaitLine(first, SUBMITTED);
                upgrades.add(mode + ": " + upgradeTimes(first.log()));
                during.get(2, TimeUnit.MINUTES);
                CompletableFuture<Void> after =
                        scenario.traffic.send(from + chunk, version == 3 ? IDS : from + 2 * chunk, RATE);
                old.get(0).sigterm();
                AppProcess second =
                        scenario.app("v" + version + "-b", version, "--streamsplit.flink.upgrade-mode=" + mode);
                scenario.awaitLine(second, ADOPTED);
                // the instance of the old version follows the new run until it stops (it looks every 5 s)
                scenario.awaitLine(old.get(1), "this instance now follows");
                old.get(1).sigterm();
                assertThat(scenario.activeRuns()).hasSize(1).doesNotContain(before);
                after.get(2, TimeUnit.MINUTES);
                old = List.of(first, second);
                version++;
            }
            String jobId = scenario.activeRun();
            IdTraffic.Tally tally = scenario.finish(
                    "rolling update of two instances to a changed pipeline: savepoint, then last-state",
                    jobId,
                    String.join(", ", upgrades));
            assertThat(tally.versions()).containsOnlyKeys("v1", "v2", "v3");
        }
    }

    /**
     * "old run stopped 3.0 s, new run submitted 3.4 s later": from the upgrade's log lines (the stop's own
     * duration, then the time from that line to the line saying the next generation was submitted).
     */
    private static String upgradeTimes(String log) {
        java.util.regex.Matcher upgrading = java.util.regex.Pattern.compile("(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*"
                        + UPGRADING + ".*?(stopped with a savepoint|cancelled)" + " in (\\d+) ms")
                .matcher(log);
        java.util.regex.Matcher submitted = java.util.regex.Pattern.compile(
                        "(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*" + SUBMITTED)
                .matcher(log);
        if (!upgrading.find() || !submitted.find()) {
            return "(no upgrade lines)";
        }
        long submitMillis = java.time.Duration.between(
                        java.time.LocalTime.parse(upgrading.group(1)), java.time.LocalTime.parse(submitted.group(1)))
                .toMillis();
        return "old run %s in %.1f s, next run submitted %.1f s later"
                .formatted(
                        upgrading.group(2).startsWith("stopped") ? "stopped with a savepoint" : "cancelled",
                        Long.parseLong(upgrading.group(3)) / 1000.0,
                        submitMillis / 1000.0);
    }

    /** One scenario: its topics, its job name, its application instances and its traffic. */
    private static final class Scenario implements AutoCloseable {

        final String job;
        final String input;
        final String output;
        final IdTraffic traffic;
        final Path work;
        final List<AppProcess> apps = new ArrayList<>();

        Scenario(String name) {
            this.job = "lifecycle-" + name;
            this.input = job + "-in";
            this.output = job + "-out";
            KAFKA.broker().createTopic(input, 4);
            KAFKA.broker().createTopic(output, 2);
            this.work = Path.of("target", "tmp", job).toAbsolutePath();
            // the broker is new on every run: so must be the checkpoints and savepoints
            org.springframework.util.FileSystemUtils.deleteRecursively(work.toFile());
            this.traffic = new IdTraffic(KAFKA.bootstrapServers(), input, output, 2);
        }

        AppProcess app(String instance, int version, String... more) {
            List<String> args = new ArrayList<>(List.of(
                    "--spring.application.name=" + job,
                    "--spring.main.web-application-type=none",
                    "--test.version=" + version,
                    "--streamsplit.kafka.embedded.enabled=false",
                    "--streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                    "--streamsplit.kafka.sources.ids.topics=" + input,
                    "--streamsplit.kafka.sources.ids.group-id=" + job,
                    "--streamsplit.kafka.sources.ids.deserializer=idDeserializer",
                    "--streamsplit.kafka.sinks.out.topic=" + output,
                    "--streamsplit.kafka.sinks.out.serializer=utf8",
                    "--streamsplit.kafka.sinks.out.delivery-guarantee=exactly-once",
                    "--streamsplit.flink.mode=remote",
                    "--streamsplit.flink.remote.host=localhost",
                    "--streamsplit.flink.remote.port=" + cluster.restPort(),
                    "--streamsplit.flink.remote.exclude-jars=" + SharedFlinkCluster.TEST_LIBRARIES,
                    "--streamsplit.flink.parallelism=2",
                    "--streamsplit.flink.checkpointing.interval=1s",
                    // no savepoint directory: upgrades put their savepoints beside the checkpoints, by default
                    "--streamsplit.flink.checkpointing.storage="
                            + work.resolve("checkpoints").toUri(),
                    "--streamsplit.flink.restart.delay=500ms"));
            args.addAll(List.of(more));
            AppProcess app = AppProcess.start(instance, work, ClusterIdsApplication.class, args);
            apps.add(app);
            return app;
        }

        double awaitLine(AppProcess app, String line) {
            return app.awaitLog(line, START);
        }

        void awaitSent(int count) {
            await().atMost(Duration.ofMinutes(2)).until(() -> traffic.sent() >= count);
        }

        /** The ids of the job's runs that are not finished, cancelled or failed. */
        List<String> activeRuns() {
            return ActiveRuns.of(cluster, job);
        }

        /** The one active run, once it runs. */
        String activeRun() {
            return ActiveRuns.one(cluster, job, START);
        }

        /** Asserts every id once and one job, and adds the scenario's row to the table. */
        IdTraffic.Tally finish(String what, String jobId, String timing) throws Exception {
            IdTraffic.Tally tally = traffic.awaitAll(IDS, Duration.ofSeconds(120));
            // a read_committed reader may see the last ids a checkpoint later: settle, then count again
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> traffic.tally(IDS).equals(traffic.tally(IDS)));
            tally = traffic.tally(IDS);
            List<String> active = activeRuns();
            TABLE.add("| %s | %d | %d | %d | %d | %d | %.1f s | %.1f s | %s |"
                    .formatted(
                            what,
                            tally.in(),
                            tally.out(),
                            tally.lost(),
                            tally.duplicated(),
                            active.size(),
                            traffic.longestStallMs() / 1000.0,
                            traffic.longestGapMs() / 1000.0,
                            timing));
            LOG.info("{}: {} {}, stall {} ms, {}", what, tally, active, traffic.longestStallMs(), timing);
            assertThat(active).containsExactly(jobId);
            assertThat(tally.exact()).as("every id exactly once: %s", tally).isTrue();
            return tally;
        }

        @Override
        public void close() throws Exception {
            apps.forEach(AppProcess::close);
            traffic.close();
            for (String run : activeRuns()) {
                cluster.cancel(run);
            }
        }
    }
}
