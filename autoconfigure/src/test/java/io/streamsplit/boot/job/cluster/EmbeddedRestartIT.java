package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.ResultTable;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The README's pipeline on the embedded cluster, each instance its own JVM, with the README's settings
 * only (plus the delivery guarantee the row names): killed with {@code kill -9} mid-stream and started
 * again, then stopped with SIGTERM mid-stream and started again. By default the job keeps its
 * checkpoints (under {@code java.io.tmpdir}, for the Kafka cluster it reads) and its source starts from
 * its group's committed offsets, so each start continues where the last stopped: exactly-once loses and
 * repeats nothing; at-least-once repeats at most what the last checkpoint interval read. And a packaged
 * run with the dev broker on the class path but no bootstrap servers is refused, not run on an in-JVM
 * broker. CI: {@value #CI_IDS} ids at {@value #CI_RATE}/s with 1 s checkpoints; the table:
 * {@code mvn -o verify -pl autoconfigure -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=EmbeddedRestartIT -Dembedded.ids=30000 -Dembedded.rate=1000 -Dembedded.interval=10s}.
 */
class EmbeddedRestartIT {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRestartIT.class);
    private static final int CI_IDS = 6_000;
    private static final int CI_RATE = 500;
    private static final int IDS = Integer.getInteger("embedded.ids", CI_IDS);
    private static final int RATE = Integer.getInteger("embedded.rate", CI_RATE);
    private static final Duration INTERVAL = Duration.parse("PT" + System.getProperty("embedded.interval", "1s"));
    private static final Duration START = Duration.ofSeconds(120);
    private static final String RUNNING = "Submitted Flink job";
    private static final ResultTable TABLE = new ResultTable(
            "delivery", "in", "out", "lost", "duplicated", "allowed duplicates", "restarts resumed from");

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @AfterAll
    static void printTable() {
        TABLE.log(
                LOG, "Embedded restart table (" + IDS + " ids at " + RATE + "/s, checkpoints every " + INTERVAL + ")");
    }

    @Test
    void exactlyOnceLosesAndRepeatsNothingAcrossKillNineAndSigterm() throws Exception {
        IdTraffic.Tally tally = killThenStop("exactly-once", RATE);
        assertThat(tally.exact()).as("every id exactly once: %s", tally).isTrue();
    }

    @Test
    void atLeastOnceRepeatsOnlyWhatCameAfterTheLastCheckpoint() throws Exception {
        IdTraffic.Tally tally = killThenStop("at-least-once", RATE / 2);
        assertThat(tally.lost()).as("nothing lost: %s", tally).isZero();
        assertThat(tally.duplicated())
                .as(
                        "each restart re-reads what came after the last completed checkpoint; reading the topic from"
                                + " the start at both (as the defaults did) would repeat all %d ids",
                        IDS)
                .isLessThanOrEqualTo(allowedDuplicates());
    }

    /**
     * A clean stop with the defaults (no {@code shutdown.job}): SIGTERM stops the job with a savepoint within
     * Boot's shutdown phase (which waits for it, however long {@code shutdown.timeout} allows), and the next
     * start resumes from that savepoint: even at-least-once repeats nothing, as a Kafka Streams application or a
     * Spring Kafka listener that commits what it processed when it stops cleanly.
     */
    @Test
    void aCleanStopWithTheDefaultsTakesASavepointTheNextStartResumesFromNothingRepeated() throws Exception {
        String job = "embedded-savepoint";
        KAFKA.broker().createTopic(job + "-in", 4);
        KAFKA.broker().createTopic(job + "-out", 2);
        Path work = Path.of("target", "tmp", job).toAbsolutePath();
        try (IdTraffic traffic = new IdTraffic(KAFKA.bootstrapServers(), job + "-in", job + "-out", 2)) {
            traffic.send(0, IDS / 2, RATE * 2).get(2, TimeUnit.MINUTES);
            AppProcess first = start(job, work, "a1", "at-least-once");
            first.awaitLog(RUNNING, START);
            assertThat(traffic.awaitAll(IDS / 2, Duration.ofSeconds(120)).lost())
                    .isZero();
            first.sigterm();
            assertThat(first.log()).contains("Stopped Flink job '" + job + "'", "with savepoint");
            traffic.send(IDS / 2, IDS, RATE * 2).get(2, TimeUnit.MINUTES);
            AppProcess second = start(job, work, "a2", "at-least-once");
            second.awaitLog(RUNNING, START);
            IdTraffic.Tally tally = traffic.awaitAll(IDS, Duration.ofSeconds(120));
            second.close();
            TABLE.add("| at-least-once, defaults, SIGTERM | %d | %d | %d | %d | 0 | [%s] |"
                    .formatted(tally.in(), tally.out(), tally.lost(), tally.duplicated(), resumedFrom(second)));
            assertThat(resumedFrom(second)).isEqualTo("savepoint");
            assertThat(tally.exact()).as("nothing repeated: %s", tally).isTrue();
        }
    }

    /**
     * Production-style: the application's classes in a jar (as {@code java -jar} runs them), the dev broker's
     * module on the class path, the bootstrap setting forgotten. It does not run on an in-JVM broker whose data
     * goes at shutdown: startup fails, naming the key.
     */
    @Test
    void aPackagedRunWithoutBootstrapServersIsRefused() throws Exception {
        Path work = Path.of("target", "tmp", "embedded-packaged").toAbsolutePath();
        Path jar = applicationJar(work);
        try (AppProcess app = AppProcess.start(
                "packaged",
                work,
                ClusterIdsApplication.class,
                List.of(
                        "--spring.application.name=embedded-packaged",
                        "--spring.main.web-application-type=none",
                        "--streamsplit.kafka.sources.ids.topics=ids",
                        "--streamsplit.kafka.sources.ids.format=string",
                        "--streamsplit.kafka.sinks.out.topic=out",
                        "--streamsplit.kafka.sinks.out.format=string"),
                List.of(jar))) {
            assertThat(app.awaitExit(START)).as("the packaged run exits").isNotZero();
            assertThat(app.log())
                    .contains("streamsplit.kafka.bootstrap-servers", "no Kafka cluster is configured", "packaged")
                    .doesNotContain("DEV MODE");
        }
    }

    private IdTraffic.Tally killThenStop(String delivery, int rate) throws Exception {
        String job = "embedded-" + delivery;
        String input = job + "-in";
        String output = job + "-out";
        KAFKA.broker().createTopic(input, 4);
        KAFKA.broker().createTopic(output, 2);
        Path work = Path.of("target", "tmp", job).toAbsolutePath();
        List<String> resumed = new ArrayList<>();
        try (IdTraffic traffic = new IdTraffic(KAFKA.bootstrapServers(), input, output, 2)) {
            AppProcess first = start(job, work, "a1", delivery);
            first.awaitLog(RUNNING, START);
            CompletableFuture<Void> sending = traffic.send(0, IDS, rate);
            await().atMost(START).until(() -> traffic.sent() >= IDS / 3);
            first.kill9();
            AppProcess second = start(job, work, "a2", delivery);
            second.awaitLog(RUNNING, START);
            resumed.add(resumedFrom(second));
            // the second instance makes progress of its own (with exactly-once: commits a checkpoint) first
            int before = traffic.tally(IDS).out();
            await().atMost(START)
                    .until(() ->
                            traffic.sent() >= 2 * IDS / 3 && traffic.tally(IDS).out() > before);
            // ... and has read what the first left behind, and a checkpoint taken after that covers it: the SIGTERM
            // then tests what the row says (a restart repeats at most what came after the last completed
            // checkpoint), not how soon a loaded machine completes a new instance's first checkpoints
            int sentNow = traffic.sent();
            await().atMost(START).until(() -> traffic.tally(sentNow).lost() == 0);
            Path checkpoints = checkpointDirectory(second);
            int newest = newestCheckpoint(checkpoints);
            await().atMost(START).until(() -> newestCheckpoint(checkpoints) > newest + 1);
            second.sigterm();
            AppProcess third = start(job, work, "a3", delivery);
            third.awaitLog(RUNNING, START);
            resumed.add(resumedFrom(third));
            sending.get(2, TimeUnit.MINUTES);
            IdTraffic.Tally tally = traffic.awaitAll(IDS, Duration.ofSeconds(120));
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> traffic.tally(IDS).equals(traffic.tally(IDS)));
            tally = traffic.tally(IDS);
            third.close();
            TABLE.add("| %s | %d | %d | %d | %d | %s | %s |"
                    .formatted(
                            delivery,
                            tally.in(),
                            tally.out(),
                            tally.lost(),
                            tally.duplicated(),
                            delivery.equals("exactly-once") ? "0" : "≤ " + allowedDuplicates(),
                            resumed));
            assertThat(resumed)
                    .as("each start resumed from the state the last one left")
                    .doesNotContain("nothing");
            return tally;
        }
    }

    /**
     * Two restarts, each re-reading what came after the last completed checkpoint (a checkpoint interval, plus
     * the time the checkpoint took: seconds on a busy machine). Reading the topic from the start at both, as the
     * defaults did, would repeat every id once more ({@link #IDS}); a half is the line between the two.
     */
    private static int allowedDuplicates() {
        return IDS / 2;
    }

    /** The job's checkpoint directory, from the line saying where {@code app} resumed (its {@code chk-N}'s parent). */
    private static Path checkpointDirectory(AppProcess app) {
        return app.log()
                .lines()
                .filter(line -> line.contains("Resuming Flink job") && line.contains(" at file:"))
                .map(line -> line.replaceAll(".* at file:(\\S+)/chk-\\d+.*", "$1"))
                .map(Path::of)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no resume from a checkpoint in " + app.log()));
    }

    /** The number of the newest completed checkpoint ({@code chk-N} with its {@code _metadata}), 0 for none. */
    private static int newestCheckpoint(Path directory) throws IOException {
        try (Stream<Path> checkpoints = Files.list(directory)) {
            return checkpoints
                    .filter(dir -> dir.getFileName().toString().matches("chk-\\d+"))
                    .filter(dir -> Files.exists(dir.resolve("_metadata")))
                    .mapToInt(
                            dir -> Integer.parseInt(dir.getFileName().toString().substring("chk-".length())))
                    .max()
                    .orElse(0);
        }
    }

    private static String resumedFrom(AppProcess app) {
        return app.log()
                .lines()
                .filter(line -> line.contains("Resuming Flink job"))
                .map(line -> line.replaceAll(".* from (checkpoint \\d+|savepoint).*", "$1"))
                .findFirst()
                .orElse("nothing");
    }

    private static AppProcess start(String job, Path work, String name, String delivery, String... more) {
        List<String> args = ClusterIdsApplication.embeddedArgs(job, KAFKA.bootstrapServers(), delivery);
        args.add("--streamsplit.flink.checkpointing.interval=" + INTERVAL.toMillis() + "ms");
        args.addAll(List.of(more));
        return AppProcess.start(name, work, ClusterIdsApplication.class, args);
    }

    /** The application's classes in a jar of their own, ahead of the test classes on the class path. */
    private static Path applicationJar(Path work) throws IOException {
        Files.createDirectories(work);
        Path jar = work.resolve("application.jar");
        Path classes = Path.of("target", "test-classes");
        String prefix = ClusterIdsApplication.class.getName().replace('.', '/');
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = classes.relativize(file).toString().replace('\\', '/');
                if (name.startsWith(prefix)) {
                    out.putNextEntry(new JarEntry(name));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
        }
        return jar;
    }
}
