package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.actuate.StreamSplitEndpoint;
import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.KafkaTopics;
import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.boot.job.state.StatePlan;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where a new run of the job starts from when none is active, and what the application refuses to do
 * on a cluster: the newest state an earlier run left, found through the cluster or, once the cluster
 * has forgotten the run, in checkpoint storage; a second application claiming the job's name, a job of
 * that name that is not a run of it, an upgrade whose savepoint fails and last-state without a
 * retained checkpoint each fail startup, naming the property, and leave the running job alone.
 */
class ClusterJobStateIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static StandaloneFlinkCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = SharedFlinkCluster.get();
    }

    private static StandaloneFlinkCluster startedCluster() {
        return StandaloneFlinkCluster.builder().taskSlots(2).start();
    }

    @Test
    void aCancelledJobResumesFromTheLatestCheckpointTheClusterRecorded() throws Exception {
        Job job = new Job("state-resume");
        job.write(0, 500);
        try (ConfigurableApplicationContext app = job.start(1, "streamsplit.flink.shutdown.job=cancel")) {
            job.awaitOutput(500);
            job.awaitCheckpointAfterOutput(app);
        }
        job.write(500, 1000);
        try (ConfigurableApplicationContext app = job.start(1, "streamsplit.flink.shutdown.job=cancel")) {
            job.awaitOutput(1000);
            assertThat(job.log(app)).containsEntry("thisInstance", "resumed");
            assertThat(String.valueOf(job.log(app).get("restoredFrom"))).contains("/chk-");
        }
        job.assertEveryIdOnce(1000);
    }

    @Test
    void aNewClusterThatForgotTheJobResumesFromCheckpointStorage() throws Exception {
        Job job = new Job("state-storage");
        job.write(0, 500);
        try (ConfigurableApplicationContext app = job.start(1, "streamsplit.flink.shutdown.job=cancel")) {
            job.awaitOutput(500);
            job.awaitCheckpointAfterOutput(app);
        }
        job.write(500, 1000);
        try (StandaloneFlinkCluster fresh = startedCluster()) {
            try (ConfigurableApplicationContext app = job.on(fresh).start(1, "streamsplit.flink.shutdown.job=cancel")) {
                job.awaitOutput(1000);
                assertThat(job.log(app)).containsEntry("thisInstance", "resumed");
                // the new cluster lists no run of the job: the next generation comes from the storage's job ids
                assertThat((long) job.log(app).get("generation")).isGreaterThan(1);
            }
        } finally {
            job.on(cluster);
        }
        job.assertEveryIdOnce(1000);
    }

    /** A job that does not checkpoint while the test runs. */
    private static final String[] NO_CHECKPOINT_YET = {
        "streamsplit.flink.checkpointing.storage=",
        "streamsplit.flink.checkpointing.interval=5m",
        "streamsplit.flink.checkpointing.first-on-start=false"
    };

    /**
     * Against one running job: another application under the same job name and an upgrade whose savepoint
     * fails each fail startup naming the property, and the job runs on, the same run. (last-state without a
     * retained checkpoint: {@code ClusterJobControllerTest}.)
     */
    @Test
    void refusedStartsLeaveTheRunningJobAlone() throws Exception {
        Job job = new Job("state-refused");
        Path notADirectory = Files.writeString(job.work.resolve("a-file"), "");
        try (ConfigurableApplicationContext app = job.start(1, NO_CHECKPOINT_YET)) {
            String running = app.getBean(JobClient.class).getJobID().toHexString();
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.allTasksRunning(running));

            FailureAnalysis owner = job.failure(OtherIdsApplication.class, 1, NO_CHECKPOINT_YET);
            assertThat(owner.getDescription())
                    .contains("streamsplit.flink.job-name", "belongs to another application")
                    .contains(ClusterIdsApplication.class.getName(), OtherIdsApplication.class.getName());

            // after a failed savepoint the application waits shutdown.timeout for the job to end (another
            // instance upgrading it) before it reports the failure: 5 s instead of the default 30 s
            FailureAnalysis savepoint = job.failure(
                    ClusterIdsApplication.class,
                    2,
                    Job.with(
                            NO_CHECKPOINT_YET,
                            "streamsplit.flink.shutdown.savepoint-directory=file://"
                                    + notADirectory.resolve("savepoints"),
                            "streamsplit.flink.shutdown.timeout=5s"));
            assertThat(savepoint.getDescription())
                    .contains("streamsplit.flink.upgrade-mode", "savepoint to upgrade", "keeps running unchanged");

            assertThat(cluster.jobState(running)).isEqualTo("RUNNING");
            assertThat(app.getBean(JobClient.class).getJobID().toHexString()).isEqualTo(running);
        }
    }

    /**
     * The state plan of upgrades, against the running run's newest checkpoint: a change that keeps every operator's
     * state upgrades; one that renames the uid of a keyed operator is refused before the run is touched, naming the
     * setting that allows it; with that setting it upgrades and says what was dropped. Every id once throughout.
     */
    @Test
    void anUpgradeThatWouldDropStateIsRefusedUntilAllowed() throws Exception {
        Job job = new Job("state-plan");
        String[] seen = {"test.seen-uid=seen", "streamsplit.flink.checkpointing.history.max-count=1"};
        try (ConfigurableApplicationContext v1 = job.start(1, seen)) {
            job.write(0, 50);
            job.awaitOutput(50);
            job.awaitCheckpointAfterOutput(v1);
            try (ConfigurableApplicationContext v2 = job.start(2, seen)) {
                assertThat(plan(v2)).containsEntry("verdict", "unchanged");
                String upgraded = v2.getBean(JobClient.class).getJobID().toHexString();
                job.write(50, 100);
                job.awaitOutput(100);
                job.awaitCheckpointAfterOutput(v2);

                FailureAnalysis refused = job.failure(ClusterIdsApplication.class, 3, "test.seen-uid=seen-v3");
                assertThat(refused.getDescription())
                        .contains(StatePlan.ALLOW_DROP, "'seen' (uid 'seen'", "keyed state", "Nothing was stopped");
                assertThat(cluster.jobState(upgraded)).isEqualTo("RUNNING");

                try (ConfigurableApplicationContext v3 = job.start(
                        3,
                        "test.seen-uid=seen-v3",
                        StatePlan.ALLOW_DROP + "=true",
                        "streamsplit.flink.checkpointing.history.max-count=1")) {
                    assertThat(plan(v3)).containsEntry("verdict", "drops-state");
                    // the history: of the states runs 1 and 2 left, only the savepoint run 3 started from
                    String live = v3.getBean(JobClient.class).getJobID().toHexString();
                    assertThat(statesOnDisk(job.work))
                            .as("states of earlier runs on disk after the second upgrade")
                            .filteredOn(path -> !path.contains(live))
                            .singleElement()
                            .satisfies(path -> assertThat(path).contains("savepoint-"));
                    assertThat(plan(v3).get("operators").toString()).contains("uid 'seen'", "outcome=dropped");
                    assertThat(v3.getBean(JobClient.class).getJobID().toHexString())
                            .isNotEqualTo(upgraded);
                    job.write(100, 150);
                    await().atMost(Duration.ofSeconds(90))
                            .until(() -> KafkaTopics.values(KAFKA.bootstrapServers(), job.output)
                                            .size()
                                    >= 150);
                }
            }
        }
        List<String> ids = KafkaTopics.values(KAFKA.bootstrapServers(), job.output).stream()
                .map(tagged -> tagged.substring(0, tagged.indexOf('@')))
                .toList();
        assertThat(ids)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, 150).mapToObj(i -> "id-" + i).toList());
    }

    /** Every complete checkpoint and savepoint under {@code work}. */
    private static List<String> statesOnDisk(Path work) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(work)) {
            return files.filter(file -> file.getFileName().toString().equals("_metadata"))
                    .map(file -> file.getParent().toString())
                    .toList();
        }
    }

    /**
     * During a rolling update an instance of the older version (re)starts while the newer version's run is on the
     * cluster: it follows that run instead of upgrading it back, and the run is never stopped.
     */
    @Test
    void anOlderVersionFollowsTheNewerVersionsRunInsteadOfUpgradingItBack() throws Exception {
        Job job = new Job("state-versions");
        try (ConfigurableApplicationContext newer = job.start(2, "spring.application.version=1.5.0")) {
            String running = newer.getBean(JobClient.class).getJobID().toHexString();
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.allTasksRunning(running));
            try (ConfigurableApplicationContext older =
                    job.start(1, "spring.application.version=1.4.2", "streamsplit.flink.shutdown.job=keep")) {
                assertThat(older.getBean(JobClient.class).getJobID().toHexString())
                        .isEqualTo(running);
                assertThat(job.log(older)).containsEntry("thisInstance", "followed");
            }
            assertThat(cluster.jobState(running)).isEqualTo("RUNNING");
            assertThat(newer.getBean(JobClient.class).getJobID().toHexString()).isEqualTo(running);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> plan(ConfigurableApplicationContext app) {
        return (Map<String, Object>)
                app.getBean(StreamSplitEndpoint.class).job().get("statePlan");
    }

    @Test
    void aJobOfTheSameNameThatIsNotARunOfItIsRefused() throws Exception {
        Job job = new Job("state-stranger");
        StreamExecutionEnvironment plain =
                StreamExecutionEnvironment.createRemoteEnvironment("localhost", cluster.restPort());
        plain.fromSequence(0, Long.MAX_VALUE).print();
        JobClient stranger = plain.executeAsync(job.name);
        try {
            FailureAnalysis refused = job.failure(ClusterIdsApplication.class, 1);
            assertThat(refused.getDescription())
                    .contains("streamsplit.flink.job-name", stranger.getJobID().toString(), "not as runs of this job");
            assertThat(refused.getAction()).contains("streamsplit.flink.restore-path");
        } finally {
            stranger.cancel().get();
        }
    }

    /**
     * A job at parallelism 6 on a cluster with 4 slots is RUNNING while half its subtasks wait for slots
     * that never come (as after a TaskManager is lost): it makes no progress, and health says so.
     */
    @Test
    void healthIsDownForARunningJobWhoseSubtasksAreNotAllRunning() throws Exception {
        Job job = new Job("state-slots");
        try (ConfigurableApplicationContext app = job.start(
                1,
                "streamsplit.flink.parallelism=6",
                "streamsplit.health.startup-grace=1s",
                "management.health.streamsplit.enabled=true")) {
            StreamSplitHealthIndicator health = app.getBean(StreamSplitHealthIndicator.class);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                Health now = health.health();
                assertThat(now.getStatus()).isEqualTo(Status.DOWN);
                assertThat(now.getDetails()).containsEntry("status", "RUNNING");
                assertThat(String.valueOf(now.getDetails().get("reason")))
                        .contains("not all its subtasks are", "4 of 6 subtasks running", "SCHEDULED");
            });
        }
    }

    /** Another application (another main class) that happens to use the same job name. */
    @SpringBootConfiguration
    static class OtherIdsApplication extends ClusterIdsApplication {}

    /** One job: its topics, its storage and the properties its application starts with. */
    private static final class Job {

        final String name;
        final String input;
        final String output;
        final Path work;
        private StandaloneFlinkCluster on = cluster;

        Job(String name) throws Exception {
            this.name = name;
            this.input = name + "-in";
            this.output = name + "-out";
            this.work = Path.of("target", "tmp", name).toAbsolutePath();
            FileSystemUtils.deleteRecursively(work);
            Files.createDirectories(work);
            KAFKA.broker().createTopic(input, 2);
            KAFKA.broker().createTopic(output, 1);
        }

        Job on(StandaloneFlinkCluster target) {
            this.on = target;
            return this;
        }

        ConfigurableApplicationContext start(int version, String... more) {
            return builder(ClusterIdsApplication.class, version, more).run();
        }

        FailureAnalysis failure(Class<?> application, int version, String... more) {
            Throwable failure = null;
            try (ConfigurableApplicationContext unexpected =
                    builder(application, version, more).run()) {
                throw new AssertionError("the application started: " + unexpected);
            } catch (RuntimeException e) {
                failure = e;
            }
            FailureAnalysis analysis = FailureReports.analyze(failure);
            assertThat(analysis).as("a StreamSplit report for %s", failure).isNotNull();
            return analysis;
        }

        private SpringApplicationBuilder builder(Class<?> application, int version, String... more) {
            List<String> properties = new ArrayList<>(List.of(
                    "spring.application.name=" + name,
                    "test.version=" + version,
                    "streamsplit.kafka.embedded.enabled=false",
                    "streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                    "streamsplit.kafka.sources.ids.topics=" + input,
                    "streamsplit.kafka.sources.ids.group-id=" + name,
                    "streamsplit.kafka.sources.ids.deserializer=idDeserializer",
                    "streamsplit.kafka.sinks.out.topic=" + output,
                    "streamsplit.kafka.sinks.out.serializer=utf8",
                    "streamsplit.kafka.sinks.out.delivery-guarantee=exactly-once",
                    "streamsplit.flink.mode=remote",
                    "streamsplit.flink.remote.host=localhost",
                    "streamsplit.flink.remote.port=" + on.restPort(),
                    "streamsplit.flink.remote.exclude-jars=" + SharedFlinkCluster.TEST_LIBRARIES,
                    "streamsplit.flink.parallelism=1",
                    "streamsplit.flink.checkpointing.interval=500ms",
                    "streamsplit.flink.checkpointing.storage=file://" + work.resolve("checkpoints"),
                    "streamsplit.flink.shutdown.savepoint-directory=file://" + work.resolve("savepoints"),
                    // these tests share one cluster: a job that a test leaves behind is cancelled
                    "streamsplit.flink.shutdown.job=cancel",
                    "spring.jmx.enabled=true",
                    "management.endpoints.jmx.exposure.include=streamsplit"));
            properties.addAll(List.of(more));
            return new SpringApplicationBuilder(application)
                    .web(WebApplicationType.NONE)
                    .properties(properties.toArray(String[]::new));
        }

        void write(int from, int to) throws Exception {
            KafkaTopics.write(
                    KAFKA.bootstrapServers(),
                    input,
                    IntStream.range(from, to).mapToObj(i -> "id-" + i).toList());
        }

        void awaitOutput(int count) {
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() ->
                            KafkaTopics.values(KAFKA.bootstrapServers(), output).size() >= count);
        }

        /** Waits for a checkpoint that completed after the output was read: the next run resumes after it. */
        void awaitCheckpointAfterOutput(ConfigurableApplicationContext app) {
            String jobId = app.getBean(JobClient.class).getJobID().toHexString();
            long seen = checkpoint(jobId);
            await().atMost(Duration.ofSeconds(30)).until(() -> checkpoint(jobId) > seen);
        }

        static String[] with(String[] these, String... more) {
            String[] all = java.util.Arrays.copyOf(these, these.length + more.length);
            System.arraycopy(more, 0, all, these.length, more.length);
            return all;
        }

        void awaitCheckpoint(String jobId) {
            await().atMost(Duration.ofSeconds(30)).until(() -> checkpoint(jobId) > 0);
        }

        private long checkpoint(String jobId) {
            return JSON.readTree(on.get("/jobs/" + jobId + "/checkpoints"))
                    .path("latest")
                    .path("completed")
                    .path("id")
                    .asLong(0);
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> log(ConfigurableApplicationContext app) {
            return (Map<String, Object>)
                    app.getBean(StreamSplitEndpoint.class).job().get("cluster");
        }

        void assertEveryIdOnce(int count) {
            assertThat(KafkaTopics.values(KAFKA.bootstrapServers(), output))
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, count)
                            .mapToObj(i -> "id-" + i + "@v1")
                            .toList());
        }
    }
}
