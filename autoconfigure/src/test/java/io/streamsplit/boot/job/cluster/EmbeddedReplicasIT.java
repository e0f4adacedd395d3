package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.ResultTable;
import io.streamsplit.embedded.kafka.EmbeddedKafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replicas of one embedded application, each its own JVM, as a Deployment with {@code replicas: 2} runs them: the
 * same YAML (the README's plus the row's delivery guarantee and a checkpoint storage both reach), started at once.
 * They elect one active instance through Kafka's group protocol; it runs the job and the others stand by. The
 * active one killed with {@code kill -9}: a standby takes over after the session timeout, from the last checkpoint
 * (exactly-once: every id once). The active one stopped with SIGTERM: it stops with a savepoint and leaves the
 * group, and the standby resumes from the savepoint at once (at-least-once: nothing repeated). A rolling update to
 * a changed pipeline: the job moves once, to the new version, never back. CI: {@value #CI_IDS} ids; the table of
 * the issue: {@code mvn -o verify -pl autoconfigure -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dit.test=EmbeddedReplicasIT -Dreplicas.ids=20000 -Dreplicas.rate=1000 -Dreplicas.count=3}.
 */
class EmbeddedReplicasIT {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedReplicasIT.class);
    private static final int CI_IDS = 3_000;
    private static final int IDS = Integer.getInteger("replicas.ids", CI_IDS);
    private static final int RATE = Integer.getInteger("replicas.rate", 300);
    private static final int COUNT = Integer.getInteger("replicas.count", 2);
    private static final Duration START = Duration.ofSeconds(120);
    private static final String ACTIVE = "is the active replica of Flink job";
    private static final String STANDBY = "stands by for Flink job";
    private static final String SUBMITTED = "Submitted Flink job";
    private static final ResultTable TABLE =
            new ResultTable("what was done", "in", "out", "lost", "duplicated", "active before → after", "takeover");

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @AfterAll
    static void printTable() {
        TABLE.log(LOG, "Embedded replicas table (" + IDS + " ids at " + RATE + "/s, 1 s checkpoints)");
    }

    @Test
    void replicasRunOneJobAndAStandbyTakesOverFromTheLastCheckpointAfterKillNine() throws Exception {
        String job = "replicas-kill";
        Path work = work(job);
        try (IdTraffic traffic = traffic(job)) {
            List<AppProcess> replicas = new ArrayList<>();
            for (int i = 1; i <= COUNT; i++) {
                replicas.add(start(job, work, "a" + i, "exactly-once", 1, true));
            }
            AppProcess active = awaitActive(replicas);
            List<AppProcess> standbys = new ArrayList<>(replicas);
            standbys.remove(active);
            for (AppProcess standby : standbys) {
                standby.awaitLog(STANDBY, START);
                assertThat(standby.log()).as("a standby runs no job").doesNotContain(SUBMITTED);
            }
            CompletableFuture<Void> sending = traffic.send(0, IDS, RATE);
            await().atMost(START)
                    .until(() -> traffic.sent() >= IDS / 3 && traffic.tally(IDS).out() > 0);
            long killed = System.nanoTime();
            active.kill9();
            AppProcess standby = awaitActive(standbys);
            double takeover = standby.awaitLog(SUBMITTED, START) - standby.secondsSinceStart(killed);
            sending.get(2, TimeUnit.MINUTES);
            IdTraffic.Tally tally = traffic.awaitAll(IDS, START);
            long running = standbys.stream()
                    .filter(app -> app.log().contains(SUBMITTED))
                    .count();
            standbys.forEach(AppProcess::close);
            row(COUNT + " replicas, exactly-once, `kill -9` of the active", tally, active, standby, takeover);
            assertThat(tally.exact()).as("every id exactly once: %s", tally).isTrue();
            assertThat(running).as("one standby took over").isEqualTo(1);
            assertThat(standby.log()).contains("Resuming Flink job");
        }
    }

    @Test
    void aSigtermOfTheActiveHandsTheJobOverWithNothingRepeated() throws Exception {
        String job = "replicas-sigterm";
        Path work = work(job);
        try (IdTraffic traffic = traffic(job)) {
            // the default checkpoint storage: the takeover says what it would lose were the storage each pod's own
            List<AppProcess> replicas = List.of(
                    start(job, work, "b1", "at-least-once", 1, false),
                    start(job, work, "b2", "at-least-once", 1, false));
            AppProcess active = awaitActive(replicas);
            AppProcess standby = other(replicas, active);
            standby.awaitLog(STANDBY, START);
            traffic.send(0, IDS / 2, RATE).get(2, TimeUnit.MINUTES);
            assertThat(traffic.awaitAll(IDS / 2, START).lost()).isZero();
            long stopped = System.nanoTime();
            active.sigterm();
            assertThat(active.log()).contains("with savepoint");
            double takeover = standby.awaitLog(SUBMITTED, START) - standby.secondsSinceStart(stopped);
            traffic.send(IDS / 2, IDS, RATE).get(2, TimeUnit.MINUTES);
            IdTraffic.Tally tally = traffic.awaitAll(IDS, START);
            standby.close();
            row("2 replicas, at-least-once, SIGTERM of the active", tally, active, standby, takeover);
            assertThat(standby.log())
                    .contains("from savepoint")
                    .contains("takes over Flink job '" + job + "' from another replica, but its checkpoint storage is"
                            + " its own");
            assertThat(tally.exact())
                    .as("nothing lost, nothing repeated: %s", tally)
                    .isTrue();
        }
    }

    @Test
    void aRollingUpdateMovesTheJobOnceToTheNewVersion() throws Exception {
        String job = "replicas-rolling";
        Path work = work(job);
        try (IdTraffic traffic = traffic(job)) {
            List<AppProcess> old = List.of(
                    start(job, work, "v1-a", "exactly-once", 1, true),
                    start(job, work, "v1-b", "exactly-once", 1, true));
            AppProcess active = awaitActive(old);
            other(old, active).awaitLog(STANDBY, START);
            // ids keep coming during the update; the second half only once it is done, so the new version has some
            CompletableFuture<Void> sending = traffic.send(0, IDS / 2, RATE);
            await().atMost(START).until(() -> traffic.tally(IDS).out() > 0);
            // maxSurge 1: a new pod, then an old one stops; a second new pod, then the other old one
            AppProcess newA = start(job, work, "v2-a", "exactly-once", 2, true);
            newA.awaitLog(STANDBY, START);
            other(old, active).sigterm();
            AppProcess newB = start(job, work, "v2-b", "exactly-once", 2, true);
            newB.awaitLog(STANDBY, START);
            active.sigterm();
            List<AppProcess> updated = List.of(newA, newB);
            AppProcess nowActive = awaitActive(updated);
            nowActive.awaitLog(SUBMITTED, START);
            sending.get(2, TimeUnit.MINUTES);
            traffic.send(IDS / 2, IDS, RATE).get(2, TimeUnit.MINUTES);
            IdTraffic.Tally tally = traffic.awaitAll(IDS, START);
            long runs = updated.stream()
                    .filter(app -> app.log().contains(SUBMITTED))
                    .count();
            row(
                    "rolling update of 2 replicas to a changed pipeline (exactly-once)",
                    tally,
                    active,
                    nowActive,
                    "versions " + tally.versions());
            newA.close();
            newB.close();
            assertThat(tally.exact()).as("every id exactly once: %s", tally).isTrue();
            assertThat(runs).as("the job moved once, to one new instance").isEqualTo(1);
            assertThat(tally.versions()).containsOnlyKeys("v1", "v2");
        }
    }

    private static void row(String what, IdTraffic.Tally tally, AppProcess before, AppProcess after, Object last) {
        TABLE.add("| %s | %d | %d | %d | %d | %s → %s | %s |"
                .formatted(
                        what,
                        tally.in(),
                        tally.out(),
                        tally.lost(),
                        tally.duplicated(),
                        before.name(),
                        after.name(),
                        last instanceof Double seconds ? "%.1f s".formatted(seconds) : last));
    }

    private static Path work(String job) {
        KAFKA.broker().createTopic(job + "-in", 4);
        KAFKA.broker().createTopic(job + "-out", 2);
        Path work = Path.of("target", "tmp", job).toAbsolutePath();
        // a new broker: checkpoints of an earlier run would not fit its topics
        org.springframework.util.FileSystemUtils.deleteRecursively(work.toFile());
        return work;
    }

    private static IdTraffic traffic(String job) {
        return new IdTraffic(KAFKA.bootstrapServers(), job + "-in", job + "-out", 2);
    }

    /** The one of {@code replicas} that says it is active, once one does; fails if more than one ever does. */
    private static AppProcess awaitActive(List<AppProcess> replicas) {
        List<AppProcess> active = new ArrayList<>();
        await().atMost(START).until(() -> {
            active.clear();
            replicas.stream().filter(app -> app.log().contains(ACTIVE)).forEach(active::add);
            return !active.isEmpty();
        });
        assertThat(active).as("one active replica").hasSize(1);
        return active.get(0);
    }

    private static AppProcess other(List<AppProcess> two, AppProcess one) {
        return two.get(0) == one ? two.get(1) : two.get(0);
    }

    /**
     * @param configuredStorage whether the replicas name their checkpoint storage; without, each uses the default
     *     under its {@code java.io.tmpdir} — here the same directory for all, as a volume pods share mounted there
     */
    private static AppProcess start(
            String job, Path work, String name, String delivery, int version, boolean configuredStorage) {
        List<String> args = ClusterIdsApplication.embeddedArgs(job, KAFKA.bootstrapServers(), delivery);
        args.add("--test.version=" + version);
        args.add("--streamsplit.flink.checkpointing.interval=1s");
        if (configuredStorage) {
            // storage every replica reaches, as a shared volume or an object store in production
            args.add("--streamsplit.flink.checkpointing.storage="
                    + work.resolve("checkpoints").toUri());
        }
        return AppProcess.start(name, work, ClusterIdsApplication.class, args);
    }
}
