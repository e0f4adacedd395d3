package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.SharedFlinkCluster;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application run by Flink (application mode) on a standalone application cluster from Flink's
 * own entry point, as the Flink Kubernetes Operator runs a {@code FlinkDeployment}: the exactly-once
 * ids pipeline ({@link ClusterIdsApplication}) with its jars in the cluster's {@code usrlib/}. A
 * TaskManager killed with SIGKILL, and the upgrades the operator does — stop with a savepoint and
 * start the changed application from it ({@code upgradeMode: savepoint}), the whole cluster killed and
 * started from the latest retained checkpoint ({@code last-state}) — leave every id exactly once under
 * read_committed. And a startup failure fails the application with the report in the log.
 */
class ApplicationModeIT {

    private static final Logger LOG = LoggerFactory.getLogger(ApplicationModeIT.class);
    private static final int IDS = 3_000;
    private static final Duration START = Duration.ofSeconds(120);
    private static final Pattern JOB = Pattern.compile("\"jid\":\"([0-9a-f]{32})\",\"name\":\"([^\"]+)\"");
    private static final Pattern STATUS = Pattern.compile("\"status\":\\{\"id\":\"([A-Z_]+)\"");
    private static final Pattern LOCATION = Pattern.compile("\"location\":\"([^\"]+)\"");

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static Path userLib;

    private final List<StandaloneFlinkCluster> clusters = new ArrayList<>();
    private final List<IdTraffic> traffics = new ArrayList<>();

    /** The application's jars as an image's usrlib/ holds them: its classes and libraries, not Flink's. */
    @BeforeAll
    static void packUserLib() throws IOException {
        userLib = Files.createDirectories(
                Path.of("target", "application-mode-usrlib").toAbsolutePath());
        try (Stream<Path> old = Files.list(userLib)) {
            for (Path file : old.toList()) {
                Files.delete(file);
            }
        }
        Set<String> flinks = StandaloneFlinkCluster.classpath().stream()
                .map(jar -> jar.getFileName().toString())
                .collect(Collectors.toSet());
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                jar(path, userLib.resolve("classes-" + n++ + ".jar"));
            } else if (entry.endsWith(".jar")
                    && !flinks.contains(path.getFileName().toString())) {
                Files.createSymbolicLink(userLib.resolve(path.getFileName()), path.toAbsolutePath());
            }
        }
    }

    @AfterEach
    void stopClusters() {
        clusters.forEach(StandaloneFlinkCluster::close);
        traffics.forEach(IdTraffic::close);
    }

    /**
     * One application's life on application clusters, as the operator would run it: version 1 loses a
     * TaskManager mid-stream and is then stopped with a savepoint; version 2 (a changed pipeline) starts
     * from that savepoint and its whole cluster is killed mid-stream; version 3 starts from the latest
     * checkpoint the killed run left. Every id once under read_committed, each version wrote some.
     */
    @Test
    void aTaskManagerKillASavepointUpgradeAndALastStateUpgradeWriteEveryIdOnce() throws Exception {
        Ids ids = new Ids("app-life");
        int third = IDS / 3;

        // version 1: a TaskManager killed mid-stream and replaced; then stopped with a savepoint, as
        // the operator's upgradeMode: savepoint does
        StandaloneFlinkCluster first = ids.start(1);
        String firstJob = ids.awaitRunning(first);
        java.util.concurrent.CompletableFuture<Void> firstThird = ids.traffic.send(0, third, 300);
        awaitOutput(ids, third / 3);
        first.killTaskManager(0);
        first.startTaskManager();
        firstThird.get();
        awaitOutput(ids, third);
        assertThat(ids.traffic.tally(third).exact())
                .as(
                        "every id once after the TaskManager kill: %s",
                        ids.traffic.tally(third).row())
                .isTrue();
        String savepoint = stopWithSavepoint(first, firstJob, ids.work.resolve("savepoints"));
        assertThat(first.awaitJobManagerExit(Duration.ofSeconds(60)))
                .as("the application cluster ends with its job")
                .isNotEqualTo(-1);
        assertThat(Files.readString(first.workDir().resolve("jobmanager.log")))
                .as("the application's end raises nothing in Flink's JVM")
                .doesNotContain("produced an uncaught exception");
        first.close();

        // version 2 (a changed pipeline) from that savepoint; then the whole cluster is killed mid-stream
        StandaloneFlinkCluster second = ids.start(2, "--fromSavepoint", savepoint);
        String secondJob = ids.awaitRunning(second);
        java.util.concurrent.CompletableFuture<Void> sending = ids.traffic.send(third, 2 * third, 300);
        awaitOutput(ids, third + third / 2);
        second.close(); // kill -9 of the JobManager and TaskManager JVMs
        sending.get();

        // version 3 from the latest checkpoint the killed run left, as upgradeMode: last-state does
        Path checkpoint = latestCheckpoint(ids.work.resolve("checkpoints").resolve(secondJob))
                .orElseThrow(() -> new AssertionError("no retained checkpoint of " + secondJob));
        StandaloneFlinkCluster last =
                ids.start(3, "--fromSavepoint", checkpoint.toUri().toString());
        ids.awaitRunning(last);
        ids.traffic.send(2 * third, IDS, 500);

        IdTraffic.Tally tally = ids.traffic.awaitAll(IDS, Duration.ofMinutes(2));
        LOG.info("application mode, TaskManager kill, savepoint and last-state upgrades: {}", tally.row());
        assertThat(tally.exact()).as("every id once: %s", tally.row()).isTrue();
        assertThat(tally.versions()).containsKeys("v1", "v2", "v3");
    }

    @Test
    void aStartupFailureFailsTheApplicationWithTheReportInTheLog() throws Exception {
        Ids ids = new Ids("app-bad");
        StandaloneFlinkCluster cluster =
                ids.start(1, "--streamsplit.kafka.sources.ids.topics=" + ids.input + "-missing");
        assertThat(cluster.awaitJobManagerExit(START))
                .as("the JobManager exits")
                .isNotEqualTo(-1);
        String log = Files.readString(cluster.workDir().resolve("jobmanager.log"));
        assertThat(log)
                .contains("streamsplit.kafka.sources.ids.topics")
                .contains(ids.input + "-missing")
                .doesNotContain("Submitted Flink job")
                .doesNotContain("produced an uncaught exception");
    }

    private static void awaitOutput(Ids ids, int count) {
        await().atMost(START).until(() -> ids.traffic.tally(IDS).out() >= count);
    }

    /**
     * POST /jobs/<id>/stop, then polls the savepoint's status; returns its location. A savepoint whose
     * trigger failed (a task still being redeployed after a TaskManager was lost) leaves the job running:
     * it is triggered again, as an operator would.
     */
    private static String stopWithSavepoint(StandaloneFlinkCluster cluster, String job, Path directory) {
        String[] location = new String[1];
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    String trigger = cluster.post(
                            "/jobs/" + job + "/stop",
                            "{\"targetDirectory\":\"" + directory.toUri() + "\",\"drain\":false}");
                    Matcher id =
                            Pattern.compile("\"request-id\":\"([0-9a-f]+)\"").matcher(trigger);
                    assertThat(id.find()).as("a trigger id in %s", trigger).isTrue();
                    String[] status = new String[1];
                    await().atMost(Duration.ofSeconds(60)).until(() -> {
                        status[0] = cluster.get("/jobs/" + job + "/savepoints/" + id.group(1));
                        Matcher state = STATUS.matcher(status[0]);
                        return state.find() && state.group(1).equals("COMPLETED");
                    });
                    Matcher where = LOCATION.matcher(status[0]);
                    if (where.find()) {
                        location[0] = where.group(1);
                        return true;
                    }
                    assertThat(status[0])
                            .as("a location or a failure in %s", status[0])
                            .contains("failure-cause");
                    return false; // triggered again at the next poll
                });
        return location[0];
    }

    /** The newest {@code chk-<n>} with its metadata written under a job's checkpoint directory. */
    private static Optional<Path> latestCheckpoint(Path jobDirectory) throws IOException {
        try (Stream<Path> checkpoints = Files.list(jobDirectory)) {
            return checkpoints
                    .filter(dir -> dir.getFileName().toString().startsWith("chk-"))
                    .filter(dir -> Files.exists(dir.resolve("_metadata")))
                    .max(Comparator.comparingInt(
                            dir -> Integer.parseInt(dir.getFileName().toString().substring(4))));
        }
    }

    private static void jar(Path classes, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file);
                Stream<Path> files = Files.walk(classes)) {
            for (Path path : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(
                        new JarEntry(classes.relativize(path).toString().replace(File.separatorChar, '/')));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
    }

    /** One scenario's topics, traffic and storage, and its application clusters. */
    private final class Ids {

        final String name;
        final String input;
        final String output;
        final Path work;
        final IdTraffic traffic;

        Ids(String name) throws IOException {
            this.name = name + "-" + UUID.randomUUID().toString().substring(0, 6);
            this.input = this.name + "-in";
            this.output = this.name + "-out";
            KAFKA.broker().createTopic(input, 4);
            KAFKA.broker().createTopic(output, 2);
            this.work = Files.createDirectories(
                    Path.of("target", "application-mode", this.name).toAbsolutePath());
            this.traffic = new IdTraffic(KAFKA.bootstrapServers(), input, output, 2);
            traffics.add(traffic);
        }

        /** An application cluster running version {@code version}; Flink's options first in {@code more}. */
        StandaloneFlinkCluster start(int version, String... more) {
            List<String> args = new ArrayList<>(List.of(more));
            args.addAll(List.of(
                    "--spring.application.name=" + name,
                    "--test.version=" + version,
                    "--streamsplit.kafka.embedded.enabled=false",
                    "--streamsplit.kafka.bootstrap-servers=" + KAFKA.bootstrapServers(),
                    "--streamsplit.kafka.sources.ids.topics=" + input,
                    "--streamsplit.kafka.sources.ids.group-id=" + name,
                    "--streamsplit.kafka.sources.ids.deserializer=idDeserializer",
                    "--streamsplit.kafka.sinks.out.topic=" + output,
                    "--streamsplit.kafka.sinks.out.serializer=utf8",
                    "--streamsplit.kafka.sinks.out.delivery-guarantee=exactly-once",
                    "--streamsplit.flink.parallelism=2",
                    "--streamsplit.flink.checkpointing.interval=1s",
                    "--streamsplit.flink.checkpointing.storage="
                            + work.resolve("checkpoints").toUri(),
                    "--streamsplit.flink.restart.delay=500ms",
                    "--streamsplit.flink.restart.attempts=100"));
            StandaloneFlinkCluster cluster = SharedFlinkCluster.fastHeartbeats(StandaloneFlinkCluster.builder())
                    .taskSlots(2)
                    .workDir(work.resolve("cluster-" + clusters.size()))
                    .application(ClusterIdsApplication.class.getName(), userLib, args.toArray(String[]::new))
                    .start();
            clusters.add(cluster);
            return cluster;
        }

        /** Waits until the application's job runs on {@code cluster}; returns its id. */
        String awaitRunning(StandaloneFlinkCluster cluster) {
            String[] job = new String[1];
            await().atMost(START).untilAsserted(() -> {
                assertThat(cluster.isJobManagerAlive())
                        .as("the JobManager runs (see %s)", cluster.workDir().resolve("jobmanager.log"))
                        .isTrue();
                String jobs = cluster.get("/jobs/overview");
                Matcher found = JOB.matcher(jobs);
                assertThat(found.find() && found.group(2).equals(name))
                        .as("job %s in %s", name, jobs)
                        .isTrue();
                job[0] = found.group(1);
                assertThat(cluster.jobState(job[0])).isEqualTo("RUNNING");
            });
            return job[0];
        }
    }
}
