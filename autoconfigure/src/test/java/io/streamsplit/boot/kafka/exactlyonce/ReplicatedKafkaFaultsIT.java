package io.streamsplit.boot.kafka.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.streamsplit.boot.actuate.StreamSplitHealthIndicator;
import io.streamsplit.boot.autoconfigure.ResultTable;
import io.streamsplit.embedded.kafka.ReplicatedKafkaCluster;
import io.streamsplit.embedded.kafka.UpgradeClasspath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Faults of a replicated Kafka cluster (three KRaft nodes in their own JVMs, replication factor 3,
 * {@code min.insync.replicas} 2, shared by the rows) under an exactly-once pipeline from properties: ids
 * written at 400/s while a fault strikes, the output read {@code read_committed}. Every row: every id out once
 * (0 lost, 0 duplicated); the longest time an output partition held records a {@code read_committed} reader
 * could not see yet (the stall: a checkpoint interval is 500 ms here, Kafka fences a dead broker after
 * {@code broker.session.timeout.ms}, 9 s); the job's restarts and the health statuses seen during the row.
 * The table is logged at the end (docs/chaos.md "A replicated cluster" has one run of it).
 */
// a row's own waits (ids through, the fault, the cluster back in sync) exceed the 180 s default on a loaded CI machine
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReplicatedKafkaFaultsIT {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedKafkaFaultsIT.class);
    private static final int IDS = 4_000;
    /**
     * A guard against a stall that does not end (a transaction left open holds read_committed readers until it
     * times out: 15 minutes): a checkpoint interval (500 ms), Kafka fencing a dead node (9 s) and a controller
     * election, with room for a loaded CI machine. The measured stalls are in the logged table.
     */
    private static final Duration STALL_BOUND = Duration.ofSeconds(45);

    /**
     * The full table is a separate command ({@code -Dchaos.all=true}, docs/chaos.md); {@code mvn -B verify} runs the
     * two rows that cover the rest: a node dying with an open transaction's coordination on it, and a rolling
     * restart of every node, as an upgrade of Kafka does it.
     */
    private static final String TABLE_ONLY = "the full fault table only (-Dchaos.all=true): CI runs the"
            + " transaction coordinator's kill and the rolling restart";

    /** The node whose data directory is a small filesystem of its own, to fill (where the machine allows it). */
    private static final int SMALL_DISK_NODE = 3;

    private static ReplicatedKafkaCluster kafka;
    private static boolean smallDisk;
    private static final ResultTable TABLE = new ResultTable(
            "fault", "in", "out", "lost", "duplicated", "longest stall", "restarts", "health", "the fault took");

    @BeforeAll
    static void startCluster() {
        smallDisk = ReplicatedKafkaCluster.canLimitDisks();
        ReplicatedKafkaCluster.Builder cluster = ReplicatedKafkaCluster.builder();
        if (smallDisk) {
            cluster.smallDisk(SMALL_DISK_NODE, 512L * 1024 * 1024);
        }
        kafka = cluster.build().start();
    }

    @AfterAll
    static void stopCluster() {
        TABLE.log(LOG, "Faults of a replicated Kafka cluster, exactly-once, " + IDS + " ids a row");
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    @EnabledIfSystemProperty(named = "chaos.all", matches = "true", disabledReason = TABLE_ONLY)
    void theSourcePartitionsLeaderKilled() throws Exception {
        row("source partition leader kill -9", run -> {
            int leader = kafka.leader(run.input, 0);
            kafka.kill(leader);
            return () -> kafka.start(leader);
        });
    }

    @Test
    @EnabledIfSystemProperty(named = "chaos.all", matches = "true", disabledReason = TABLE_ONLY)
    void theSinkPartitionsLeaderKilledWithATransactionOpen() throws Exception {
        row("sink partition leader kill -9 (transaction open)", run -> {
            int leader = kafka.leader(run.output, 0);
            kafka.kill(leader);
            return () -> kafka.start(leader);
        });
    }

    @Test
    @EnabledIfSystemProperty(named = "chaos.all", matches = "true", disabledReason = TABLE_ONLY)
    void theActiveControllerKilled() throws Exception {
        row("active controller kill -9", run -> {
            int controller = kafka.activeController();
            kafka.kill(controller);
            return () -> kafka.start(controller);
        });
    }

    @Test
    void theTransactionCoordinatorKilledDuringACommit() throws Exception {
        row("transaction coordinator kill -9 (transaction open)", run -> {
            String transactionalId = openTransaction();
            int coordinator = kafka.transactionCoordinator(transactionalId);
            LOG.info("Killing node {}, coordinator of open transaction {}", coordinator, transactionalId);
            kafka.kill(coordinator);
            return () -> kafka.start(coordinator);
        });
    }

    @Test
    void aRollingRestartOfEveryBroker() throws Exception {
        row("rolling restart of all 3 nodes (SIGTERM, start, in sync)", run -> {
            kafka.rollingRestart(run.input, run.output, "__transaction_state", "__consumer_offsets");
            return () -> {};
        });
    }

    @Test
    @EnabledIfSystemProperty(named = "chaos.all", matches = "true", disabledReason = TABLE_ONLY)
    void aRollingUpgradeOfKafka() throws Exception {
        // the next Kafka line's server jars, copied by the build (maven-dependency-plugin, kafka.upgrade.version)
        Path jars = Path.of(System.getProperty("kafka.upgrade.dir", "target/kafka-upgrade"));
        String to = System.getProperty("kafka.upgrade.version", "4.2.2");
        String from = kafka.kafkaVersion(1);
        String[] topics = {"__transaction_state", "__consumer_offsets"};
        row("rolling upgrade of all 3 nodes, Kafka " + from + " to " + to + " (SIGTERM, start, in sync)", run -> {
            kafka.rollingUpgrade(UpgradeClasspath.withJarsFrom(jars), run.input, run.output, topics[0], topics[1]);
            for (int id : kafka.nodeIds()) {
                assertThat(kafka.kafkaVersion(id)).as("node " + id).isEqualTo(to);
            }
            // and back for the other rows: the metadata version was not finalized, so Kafka allows it
            return () -> kafka.rollingUpgrade(System.getProperty("java.class.path"), topics);
        });
    }

    @Test
    // table only: in CI its input writer (a plain producer) fails on the full node's UnknownServerException, which
    // is the test's writer, not the job (seen in a clean-clone run); the two CI rows cover the job's recovery
    @EnabledIfSystemProperty(named = "chaos.all", matches = "true", disabledReason = TABLE_ONLY)
    void aNodesDiskFills() throws Exception {
        assumeTrue(
                smallDisk,
                "a full disk needs a filesystem of the node's own: Linux and the rights to mount one (root);"
                        + " ReplicatedKafkaCluster.canLimitDisks() is false here");
        row("disk full on node " + SMALL_DISK_NODE + " (Kafka stops the node)", run -> {
            kafka.fillDisk(SMALL_DISK_NODE);
            await("Kafka node " + SMALL_DISK_NODE + " stops once its only log directory cannot be written")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> !kafka.isRunning(SMALL_DISK_NODE));
            assertThat(Files.readString(kafka.workDir().resolve("node-" + SMALL_DISK_NODE + ".log")))
                    .as("the node stopped for its disk")
                    .contains("No space left on device");
            return () -> {
                kafka.freeDisk(SMALL_DISK_NODE);
                kafka.start(SMALL_DISK_NODE);
            };
        });
    }

    /** A fault, struck while ids flow; what it returns puts the cluster back. */
    @FunctionalInterface
    interface Fault {
        Runnable strike(IdsRun run) throws Exception;
    }

    private void row(String name, Fault fault) throws Exception {
        IdsRun run = new IdsRun(kafka.bootstrapServers());
        kafka.createTopic(run.input, 3);
        kafka.createTopic(run.output, 2);
        kafka.createTopic(run.deadLetters, 1);
        Runnable restore = () -> {};
        try (ConfigurableApplicationContext app = run.start("exactly-once");
                Watch watch = new Watch(run.output, app.getBean(StreamSplitHealthIndicator.class))) {
            CompletableFuture<Void> writes = run.writeWhileRunning(0, IDS, 40);
            run.awaitDistinct(run.output, 500, Duration.ofMinutes(2));
            long faultAt = System.nanoTime();
            restore = fault.strike(run);
            long struck = System.nanoTime();
            writes.get(3, TimeUnit.MINUTES);
            run.awaitDistinct(run.output, IDS, Duration.ofMinutes(3));
            Map<String, Integer> counts = run.committed(run.output);
            long duplicated = counts.values().stream().mapToLong(n -> n - 1).sum();
            long lost = IDS - counts.size();
            Duration stall = watch.longestStall();
            TABLE.add(String.format(
                    Locale.ROOT,
                    "| %s | %d | %d | %d | %d | %.1f s | %d | %s | fault took %.1f s |",
                    name,
                    IDS,
                    counts.size(),
                    lost,
                    duplicated,
                    stall.toMillis() / 1000.0,
                    watch.restarts(),
                    watch.statuses(),
                    (struck - faultAt) / 1e9));
            assertThat(lost).as(name + ": ids lost").isZero();
            assertThat(duplicated).as(name + ": ids written twice").isZero();
            assertThat(stall).as(name + ": longest read_committed stall").isLessThan(STALL_BOUND);
            // and no transaction was left open by the fault: with the input drained, everything written becomes
            // visible within a few checkpoints — on a loaded 2-core CI machine (three IT JVMs beside this cluster)
            // a job still recovering from the fault can take tens of seconds to get there (seen: > 15 s once after
            // the rolling restart); a transaction left open for good would hold for its 15-minute timeout
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(run.ongoingTransactions())
                        .as(name + ": transactions still open")
                        .isEmpty();
                assertThat(run.invisibleRecords(run.output))
                        .as(name + ": records not visible")
                        .isEmpty();
            });
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(app.getBean(StreamSplitHealthIndicator.class)
                                    .health()
                                    .getStatus()
                                    .getCode())
                            .as(name + ": health after the row")
                            .isEqualTo("UP"));
        } finally {
            restore.run();
            kafka.awaitInSync(run.input, run.output, "__transaction_state", "__consumer_offsets");
        }
    }

    /** The id of a transaction open now on the cluster (the app's sink is the only writer with transactions). */
    private static String openTransaction() throws Exception {
        try (Admin admin = admin()) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < deadline) {
                for (TransactionListing listing : admin.listTransactions().all().get(10, TimeUnit.SECONDS)) {
                    if (listing.state() == TransactionState.ONGOING) {
                        return listing.transactionalId();
                    }
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
        }
        throw new IllegalStateException("No open transaction within 10 s");
    }

    private static Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000));
    }

    /**
     * Watches a row from the side, every 200 ms: the output partitions' last stable offsets against their high
     * watermarks (a partition whose records are written but not yet visible to read_committed readers is
     * stalled from the last time its stable offset moved), the job's restarts and the health statuses.
     */
    private static final class Watch implements AutoCloseable {
        private final String output;
        private final StreamSplitHealthIndicator health;
        // short timeouts: a look routed to a dead leader fails within a second and the next one asks again
        private final Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 1_000));
        private final Map<Integer, Long> lastStable = new LinkedHashMap<>();
        private final Map<Integer, Long> movedAt = new LinkedHashMap<>();
        private final Map<Integer, Boolean> pending = new LinkedHashMap<>();
        private final Set<String> statuses = Collections.synchronizedSet(new LinkedHashSet<>());
        private volatile long longestStallNanos;
        private volatile long restarts;
        private volatile boolean watching = true;
        private final Thread thread = new Thread(this::watch, "fault-row-watch");

        Watch(String output, StreamSplitHealthIndicator health) {
            this.output = output;
            this.health = health;
            thread.start();
        }

        Duration longestStall() {
            return Duration.ofNanos(longestStallNanos);
        }

        long restarts() {
            return restarts;
        }

        String statuses() {
            synchronized (statuses) {
                return String.join(" → ", statuses);
            }
        }

        private void watch() {
            while (watching) {
                lookAtOffsets();
                lookAtHealth();
                try {
                    TimeUnit.MILLISECONDS.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void lookAtOffsets() {
            try {
                Map<TopicPartition, long[]> ends = IdsRun.stableAndWritten(
                        admin,
                        Set.of(new TopicPartition(output, 0), new TopicPartition(output, 1)),
                        Duration.ofSeconds(2));
                long now = System.nanoTime();
                for (Map.Entry<TopicPartition, long[]> partitionEnds : ends.entrySet()) {
                    int p = partitionEnds.getKey().partition();
                    long lso = partitionEnds.getValue()[0];
                    long hw = partitionEnds.getValue()[1];
                    Long last = lastStable.get(p);
                    if (last != null && (lso == last || pending.getOrDefault(p, false))) {
                        // still stalled, or a stall that just ended (looks may have gone unanswered meanwhile)
                        longestStallNanos = Math.max(longestStallNanos, now - movedAt.get(p));
                    }
                    if (last == null || lso != last || hw == lso) {
                        lastStable.put(p, lso);
                        movedAt.put(p, now);
                    }
                    pending.put(p, hw > lso);
                }
            } catch (Exception unanswered) {
                // a node is down and the request went to it: the next look asks again, and a stall still counts
                // from the last time the offset was seen moving
            }
        }

        private void lookAtHealth() {
            Health now = health.health();
            statuses.add(now.getStatus().getCode());
            Object seen = now.getDetails().get("restarts");
            if (seen instanceof Number number) {
                restarts = Math.max(restarts, number.longValue());
            }
        }

        @Override
        public void close() throws InterruptedException {
            watching = false;
            thread.interrupt();
            thread.join(5_000);
            admin.close(Duration.ofSeconds(5));
        }
    }
}
