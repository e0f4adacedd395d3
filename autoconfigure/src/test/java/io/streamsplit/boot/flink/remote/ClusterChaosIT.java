package io.streamsplit.boot.flink.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.KafkaSplitStates;
import io.streamsplit.boot.actuate.SplitState;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.ResultTable;
import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.boot.autoconfigure.Words;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.flink.core.execution.JobClient;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Exactly-once through failures made for real on a multi-process cluster: remote mode with shipped
 * jars, an exactly-once Kafka → Kafka pipeline from YAML on 6 partitions, TaskManager JVMs killed
 * with SIGKILL, the application stopped with a savepoint and restarted at other parallelisms,
 * partitions added mid-run, the broker restarted. Each scenario asserts that a read_committed
 * consumer sees every id exactly once. The scenarios share one cluster (two TaskManagers of two slots;
 * a scenario that needs more starts a third and kills it after). CI runs one scenario with 5,000 ids
 * (a TaskManager killed right after a checkpoint); the others are other tests' subjects too (savepoint
 * restarts at other parallelisms: JobLifecycleIT, RemoteModeIT's rescale, ClusterLifecycleIT's
 * upgrades; partitions added: DiscoveryIT; the broker restarted: BrokerRestartIT) and run in the
 * harness run, which logs the table of docs/chaos.md:
 * {@code mvn -o verify -pl autoconfigure -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=ClusterChaosIT -Dchaos.all=true -Dchaos.ids=200000 -Dtest.jvm.options=} (full JIT).
 */
class ClusterChaosIT {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterChaosIT.class);
    private static final String HARNESS_ONLY =
            "the harness run only (-Dchaos.all=true): CI runs the kill right after a checkpoint";
    private static final int IDS = Integer.getInteger("chaos.ids", 5_000);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ResultTable TABLE =
            new ResultTable("scenario", "in", "out", "lost", "duplicated", "recovery", "restarts");

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    /** The module's shared cluster (each scenario cancels its job when it ends): two TaskManagers of two slots. */
    private static StandaloneFlinkCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = SharedFlinkCluster.get();
    }

    @AfterAll
    static void printTable() {
        TABLE.log(LOG, "Chaos table (" + IDS + " ids per scenario)");
    }

    @Test
    @EnabledIfSystemProperty(named = "chaos.all", matches = "true", disabledReason = HARNESS_ONLY)
    void aTaskManagerKilledMidStreamAndReplaced() throws Exception {
        killScenario("chaos-kill", false, "kill -9 a TaskManager mid-stream, start a replacement");
    }

    @Test
    void aTaskManagerKilledRightAfterACheckpoint() throws Exception {
        killScenario("chaos-checkpoint", true, "kill -9 a TaskManager right after a checkpoint");
    }

    /** Half the ids, a TaskManager killed (right after a checkpoint completes, if asked), the other half. */
    private void killScenario(String name, boolean afterCheckpoint, String scenario) throws Exception {
        Run run = new Run(name);
        try (ConfigurableApplicationContext app = run.app(4)) {
            String jobId = run.jobId(app);
            run.write(0, IDS / 2);
            run.awaitOutputAtLeast(1);
            if (afterCheckpoint) {
                long completed = run.latestCheckpoint(jobId);
                // polled every 20 ms: the kill comes within ~20 ms of the checkpoint's completion
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> run.latestCheckpoint(jobId) > completed);
            }
            String recovery = run.killAndReplace(jobId, () -> run.write(IDS / 2, IDS));
            run.awaitOutputAtLeast(IDS);
            run.report(scenario, recovery, run.restarts(jobId));
        }
    }

    @Test
    @EnabledIfSystemProperty(named = "chaos.all", matches = "true", disabledReason = HARNESS_ONLY)
    void stoppedWithASavepointAndStartedAgainAtParallelism2Then6(@TempDir Path savepoints) throws Exception {
        Run run = new Run("chaos-rescale");
        int third = cluster.startTaskManager(); // 6 slots for p=6
        String restore = null;
        List<String> firstRecord = new ArrayList<>();
        int[] parallelisms = {4, 2, 6};
        for (int i = 0; i < parallelisms.length; i++) {
            Path directory = Files.createDirectory(savepoints.resolve("run-" + i));
            List<String> more = new ArrayList<>(List.of(
                    "streamsplit.flink.shutdown.job=savepoint",
                    "streamsplit.flink.shutdown.savepoint-directory=" + directory.toUri()));
            if (restore != null) {
                more.add("streamsplit.flink.restore-path=" + restore);
            }
            int before = run.output().size();
            long startedAt = System.nanoTime();
            try (ConfigurableApplicationContext app = run.app(parallelisms[i], more.toArray(String[]::new))) {
                run.write(i * IDS / 3, i == 2 ? IDS : (i + 1) * IDS / 3);
                run.awaitOutputAtLeast(before + 1);
                firstRecord.add("p" + parallelisms[i] + " " + (System.nanoTime() - startedAt) / 1_000_000 + " ms");
                run.awaitOutputAtLeast(i == 2 ? IDS : (i + 1) * IDS / 3);
            } // closing the application stops the job with a savepoint
            try (Stream<Path> taken = Files.list(directory)) {
                restore = taken.filter(p -> p.getFileName().toString().startsWith("savepoint-"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no savepoint in " + directory))
                        .toUri()
                        .toString();
            }
        }
        cluster.killTaskManager(third);
        run.report(
                "stop with savepoint (SIGTERM path), start at p=2, again at p=6",
                "app start → first output: " + String.join(", ", firstRecord),
                0);
    }

    @Test
    @EnabledIfSystemProperty(named = "chaos.all", matches = "true", disabledReason = HARNESS_ONLY)
    void partitionsAddedMidRunAreReadFromTheirFirstRecord() throws Exception {
        Run run = new Run("chaos-partitions");
        Duration discovery = Duration.ofSeconds(2);
        try (ConfigurableApplicationContext app =
                run.app(4, "streamsplit.kafka.sources.words.discovery-interval=" + discovery.toSeconds() + "s")) {
            run.write(0, IDS / 2);
            run.awaitOutputAtLeast(IDS / 2);
            long addedAt = System.nanoTime();
            KAFKA.broker().addPartitions(run.input, 8);
            // the test's own producer must not race the broker creating them (an idempotent producer
            // that writes before the new partitions have a leader can be stuck on a sequence error)
            try (Admin admin = Admin.create(KAFKA.broker().clientProperties())) {
                await().atMost(Duration.ofSeconds(30))
                        .until(() ->
                                admin
                                                .describeTopics(List.of(run.input))
                                                .allTopicNames()
                                                .get()
                                                .get(run.input)
                                                .partitions()
                                                .stream()
                                                .filter(p -> p.leader() != null
                                                        && !p.leader().isEmpty())
                                                .count()
                                        == 8);
            }
            // the second half goes to the new partitions only
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int id = IDS / 2; id < IDS; id++) {
                records.add(new ProducerRecord<>(
                        run.input, 6 + id % 2, null, ("id-" + id).getBytes(StandardCharsets.UTF_8)));
            }
            KafkaTopics.write(KAFKA.bootstrapServers(), records);
            KafkaSplitStates splits = app.getBean(KafkaSplitStates.class);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> splits.read().sources().get("words").splits().stream()
                                    .filter(s -> s.partition() >= 6)
                                    .map(SplitState::currentOffset)
                                    .filter(offset -> offset != null && offset > 0)
                                    .count()
                            == 2);
            long readMillis = (System.nanoTime() - addedAt) / 1_000_000;
            run.awaitOutputAtLeast(IDS);
            // one discovery interval, plus the REST metric store's refresh (500 ms) and this machine's pace
            assertThat(readMillis).isLessThan(discovery.toMillis() * 2 + 3_000);
            run.report(
                    "partitions 6 → 8 mid-run (discovery every 2 s)",
                    "added → new partitions read: " + readMillis + " ms",
                    run.restarts(run.jobId(app)));
        }
    }

    @Test
    @EnabledIfSystemProperty(named = "chaos.all", matches = "true", disabledReason = HARNESS_ONLY)
    void theBrokerRestartedWhileTheClusterJobRuns() throws Exception {
        Run run = new Run("chaos-broker");
        try (ConfigurableApplicationContext app = run.app(4)) {
            String jobId = run.jobId(app);
            run.write(0, IDS / 2);
            run.awaitOutputAtLeast(1);
            long stoppedAt = System.nanoTime();
            KAFKA.broker().stop();
            KAFKA.broker().start(); // same port and log directories
            int atRestart = run.output().size();
            run.write(IDS / 2, IDS);
            run.awaitOutputAtLeast(Math.min(IDS, atRestart + 1));
            long recovery = (System.nanoTime() - stoppedAt) / 1_000_000;
            run.awaitOutputAtLeast(IDS);
            run.report(
                    "broker stopped and restarted mid-run",
                    "stop → next committed output: " + recovery + " ms",
                    run.restarts(jobId));
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** One scenario's topics, cluster and application. */
    private final class Run {

        final String name;
        final String input;
        final String output;

        Run(String name) {
            this.name = name;
            this.input = name + "-in";
            this.output = name + "-out";
            KAFKA.broker().createTopic(input, 6);
            KAFKA.broker().createTopic(output, 4);
        }

        ConfigurableApplicationContext app(int parallelism, String... more) {
            List<String> properties = new ArrayList<>(List.of(
                    "streamsplit.flink.mode=remote",
                    "streamsplit.flink.remote.host=localhost",
                    "streamsplit.flink.remote.port=" + cluster.restPort(),
                    "streamsplit.flink.remote.exclude-jars=" + SharedFlinkCluster.TEST_LIBRARIES,
                    "streamsplit.flink.parallelism=" + parallelism,
                    "streamsplit.flink.restart.delay=500ms",
                    // the replacement TaskManager's JVM start can take half a minute on a loaded 2-core
                    // machine; the default 10 attempts ran out before its slots came (CI flake)
                    "streamsplit.flink.restart.attempts=100",
                    "streamsplit.flink.shutdown.job=cancel",
                    "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once"));
            properties.addAll(List.of(more));
            ConfigurableApplicationContext app =
                    Words.start(KAFKA.bootstrapServers(), name, properties.toArray(String[]::new));
            awaitAllTasksRunning(jobId(app));
            return app;
        }

        String jobId(ConfigurableApplicationContext app) {
            return app.getBean(JobClient.class).getJobID().toString();
        }

        void write(int from, int to) throws Exception {
            KafkaTopics.write(
                    KAFKA.bootstrapServers(),
                    input,
                    IntStream.range(from, to).mapToObj(i -> "id-" + i).toList());
        }

        List<String> output() {
            return KafkaTopics.values(KAFKA.bootstrapServers(), output);
        }

        void awaitOutputAtLeast(int count) {
            await().atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> output().size() >= count);
        }

        /** Asserts every id exactly once and adds the scenario's row to the table. */
        void report(String scenario, String recovery, long restarts) {
            List<String> out = output();
            Map<String, Integer> seen = new HashMap<>();
            out.forEach(value -> seen.merge(value, 1, Integer::sum));
            long lost = IntStream.range(0, IDS)
                    .filter(i -> !seen.containsKey("ID-" + i))
                    .count();
            long duplicated = seen.values().stream().mapToInt(n -> n - 1).sum();
            TABLE.add("| %s | %d | %d | %d | %d | %s | %d |"
                    .formatted(scenario, IDS, out.size(), lost, duplicated, recovery, restarts));
            LOG.info(
                    "{}: in {}, out {}, lost {}, duplicated {}; {}",
                    scenario,
                    IDS,
                    out.size(),
                    lost,
                    duplicated,
                    recovery);
            assertThat(out).hasSize(IDS).doesNotHaveDuplicates();
            assertThat(out)
                    .containsExactlyInAnyOrderElementsOf(
                            IntStream.range(0, IDS).mapToObj(i -> "ID-" + i).toList());
        }

        /**
         * Kills TaskManager {@code index}, starts a replacement and sends more input; returns the ms from
         * the kill until every task runs again and until the first output committed after the kill.
         */
        String killAndReplace(String jobId, ThrowingRunnable thenWrite) throws Exception {
            int index = cluster.liveTaskManagers().get(0);
            int committedAtKill = output().size();
            long killedAt = System.nanoTime();
            long killedAtMillis = System.currentTimeMillis();
            cluster.killTaskManager(index);
            cluster.startTaskManager();
            thenWrite.run();
            // the job records the loss in its exception history (a restart can be over before a poll sees it)
            await().atMost(Duration.ofSeconds(60)).until(() -> latestFailure(jobId) >= killedAtMillis);
            awaitAllTasksRunning(jobId);
            long running = (System.nanoTime() - killedAt) / 1_000_000;
            awaitOutputAtLeast(committedAtKill + 1);
            long output = (System.nanoTime() - killedAt) / 1_000_000;
            return "kill → tasks running " + running + " ms, → first new output " + output + " ms";
        }

        long latestCheckpoint(String jobId) {
            return JSON.readTree(cluster.get("/jobs/" + jobId + "/checkpoints"))
                    .path("latest")
                    .path("completed")
                    .path("id")
                    .asLong(-1);
        }

        long restarts(String jobId) {
            for (JsonNode metric : JSON.readTree(cluster.get("/jobs/" + jobId + "/metrics?get=numRestarts"))) {
                return metric.path("value").asLong(0);
            }
            return 0;
        }

        private long latestFailure(String jobId) {
            return JSON.readTree(cluster.get("/jobs/" + jobId + "/exceptions"))
                    .path("exceptionHistory")
                    .path("entries")
                    .path(0)
                    .path("timestamp")
                    .asLong(0);
        }

        private void awaitAllTasksRunning(String jobId) {
            await().atMost(Duration.ofSeconds(120)).until(() -> cluster.allTasksRunning(jobId));
        }
    }
}
