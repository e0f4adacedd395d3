package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.job.cluster.ClusterView.ActiveRun;
import io.streamsplit.boot.job.cluster.JobDecision.Phase;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of what the application does about its job on a cluster, as one row each: what the
 * cluster shows, where the instance stands, and the decision. The rows are the contract the
 * application keeps while it runs (a run the cluster forgot is put back, a run cancelled outside is
 * left stopped, a newer deploy's run is followed, never upgraded back) and at start-up (adopt, upgrade,
 * start).
 */
class JobDecisionTest {

    private static final String JOB = "orders";
    private static final JobIdentity ID = JobIdentity.of(JOB);
    private static final String OURS = "fp-ours";
    private static final String OWNER = "com.example.OrdersApplication";
    private static final Instant NOW = Instant.parse("2026-12-06T10:00:00Z");
    private static final Duration SUCCESSOR_WAIT = Duration.ofSeconds(30);

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decides(String row, ClusterView cluster, JobDecision.Application app, String expected) {
        assertThat(describe(JobDecision.decide(cluster, app))).as(row).isEqualTo(expected);
    }

    static Stream<Arguments> rows() {
        List<Arguments> rows = new ArrayList<>();
        // start-up
        rows.add(row("start-up, nothing on the cluster: start generation 1", view(List.of()), starting(), "start 1"));
        rows.add(row(
                "start-up, earlier runs ended: start the next generation",
                view(List.of(ended(2, JobStatus.CANCELED, 600))),
                starting(),
                "start 3"));
        rows.add(row(
                "start-up, our version runs: adopt",
                view(List.of(active(3, JobStatus.RUNNING, labels(OURS, OWNER)))),
                starting(),
                "attach 3 ADOPTED"));
        rows.add(row(
                "start-up, another version runs: upgrade with a savepoint",
                view(List.of(active(3, JobStatus.RUNNING, labels("fp-old", OWNER)))),
                starting(),
                "upgrade 3 SAVEPOINT"));
        rows.add(row(
                "start-up, a newer version runs (an old instance restarting mid-rollout): follow it, no flip-flop",
                view(List.of(active(3, JobStatus.RUNNING, labels("fp-new", OWNER, "1.5.0")))),
                startingVersion("1.4.2", false),
                "attach 3 FOLLOWED (newer: 1.5.0)"));
        rows.add(row(
                "start-up, a newer version runs and this one rolls back on purpose (allow-downgrade): upgrade",
                view(List.of(active(3, JobStatus.RUNNING, labels("fp-new", OWNER, "1.5.0")))),
                startingVersion("1.4.2", true),
                "upgrade 3 SAVEPOINT"));
        rows.add(row(
                "start-up, an older version runs: upgrade",
                view(List.of(active(3, JobStatus.RUNNING, labels("fp-old", OWNER, "1.4.2")))),
                startingVersion("1.10.0", false),
                "upgrade 3 SAVEPOINT"));
        rows.add(row(
                "start-up, the same version with another job (a configuration change): upgrade",
                view(List.of(active(3, JobStatus.RUNNING, labels("fp-old", OWNER, "1.5.0")))),
                startingVersion("1.5.0", false),
                "upgrade 3 SAVEPOINT"));
        rows.add(row(
                "start-up, a run without a version (an earlier StreamSplit): upgrade, as before",
                view(List.of(active(3, JobStatus.RUNNING, labels("fp-old", OWNER)))),
                startingVersion("1.5.0", false),
                "upgrade 3 SAVEPOINT"));
        rows.add(row(
                "start-up, another version restarting: no savepoint possible, last-state",
                view(List.of(active(3, JobStatus.RESTARTING, labels("fp-old", OWNER)))),
                starting(),
                "upgrade 3 LAST_STATE (not running)"));
        rows.add(row(
                "start-up, upgrade-mode stateless",
                view(List.of(active(3, JobStatus.RUNNING, labels("fp-old", OWNER)))),
                app(Phase.STARTING, null, 0, UpgradeMode.STATELESS, false),
                "upgrade 3 STATELESS"));
        rows.add(row(
                "start-up, a run another instance has just submitted shows no labels yet: wait",
                view(List.of(active(3, JobStatus.RUNNING, labels(null, null)))),
                starting(),
                "wait LABELS"));
        rows.add(row(
                "start-up, last look, still no labels (an older StreamSplit's run): upgrade it",
                view(List.of(active(3, JobStatus.RUNNING, labels(null, null)))),
                app(Phase.STARTING, null, 0, UpgradeMode.SAVEPOINT, true),
                "upgrade 3 SAVEPOINT"));
        rows.add(row(
                "start-up, the newest run initializes: wait",
                view(List.of(active(3, JobStatus.INITIALIZING, labels(OURS, OWNER)))),
                starting(),
                "wait STARTING"));
        rows.add(row(
                "start-up, the newest run is being cancelled: wait",
                view(List.of(active(3, JobStatus.CANCELLING, labels(OURS, OWNER)))),
                starting(),
                "wait STOPPING"));
        rows.add(row(
                "start-up, two runs active: cancel the older",
                view(List.of(
                        active(3, JobStatus.RUNNING, labels(OURS, OWNER)),
                        active(2, JobStatus.RUNNING, labels(OURS, OWNER)))),
                starting(),
                "cancel [2]"));
        rows.add(row(
                "start-up, another application's run under the same name: refuse",
                view(List.of(active(3, JobStatus.RUNNING, labels(OURS, "com.example.Other")))),
                starting(),
                "refuse"));
        rows.add(row(
                "start-up, a job of the same name that is not a run of ours: refuse",
                new ClusterView(
                        null,
                        List.of(new ClusterJob(new JobID(), JOB, JobStatus.RUNNING, NOW, null)),
                        null,
                        List.of(),
                        List.of(),
                        0,
                        NOW),
                starting(),
                "refuse"));
        // running
        rows.add(row(
                "running, our run is active: keep",
                view(List.of(active(3, JobStatus.RUNNING, labels(OURS, OWNER)))),
                attached(3),
                "keep"));
        rows.add(row(
                "running, our run restarts after a failure: keep (Flink restarts it)",
                view(List.of(active(3, JobStatus.RESTARTING, labels(OURS, OWNER)))),
                attached(3),
                "keep"));
        rows.add(row(
                "running, a newer deploy's run replaced ours: follow it, never upgrade back",
                view(List.of(ended(3, JobStatus.FINISHED, 5), active(4, JobStatus.RUNNING, labels("fp-newer", OWNER)))),
                attached(3),
                "attach 4 FOLLOWED"));
        rows.add(row(
                "running, another instance put the job back: follow",
                view(List.of(active(4, JobStatus.RUNNING, labels(OURS, OWNER)))),
                attached(3),
                "attach 4 FOLLOWED"));
        rows.add(row(
                "running, the JobManager restarted without HA and forgot our run: put it back",
                view(List.of()),
                attached(3),
                "put back 4"));
        rows.add(row(
                "running, forgotten run on a cluster with high availability: it recovers its jobs, wait",
                view(List.of()),
                attached(3).withRecovery(true),
                "wait RECOVERY"));
        rows.add(row(
                "running, a new cluster lists older generations only: put back above ours",
                view(List.of(ended(1, JobStatus.CANCELED, 60))),
                attached(3),
                "put back 4"));
        rows.add(row(
                "running, our run was cancelled seconds ago: wait for a run that replaces it",
                view(List.of(ended(3, JobStatus.CANCELED, 5))),
                attached(3),
                "wait SUCCESSOR"));
        rows.add(row(
                "running, our run was cancelled outside and nothing replaced it: leave it stopped",
                view(List.of(ended(3, JobStatus.CANCELED, 45))),
                attached(3),
                "leave CANCELED"));
        rows.add(row(
                "running, our run failed for good: leave it stopped",
                view(List.of(ended(3, JobStatus.FAILED, 45))),
                attached(3),
                "leave FAILED"));
        rows.add(row(
                "left stopped: stays so, even once the cluster forgets the run",
                view(List.of()),
                app(Phase.LEFT_STOPPED, ID.jobId(3), 3, UpgradeMode.SAVEPOINT, false),
                "wait OPERATOR"));
        rows.add(row(
                "left stopped, someone started it again: follow",
                view(List.of(active(4, JobStatus.RUNNING, labels(OURS, OWNER)))),
                app(Phase.LEFT_STOPPED, ID.jobId(3), 3, UpgradeMode.SAVEPOINT, false),
                "attach 4 FOLLOWED"));
        rows.add(row(
                "stopped from the endpoint: not put back",
                view(List.of(ended(3, JobStatus.FINISHED, 300))),
                app(Phase.STOPPED_BY_OPERATOR, ID.jobId(3), 3, UpgradeMode.SAVEPOINT, false),
                "wait OPERATOR"));
        rows.add(row(
                "the cluster does not answer: wait, change nothing",
                ClusterView.notAnswering("ConnectException: Connection refused", NOW),
                attached(3),
                "wait NOT_ANSWERING"));
        rows.add(row(
                "the cluster answers with errors: wait, change nothing",
                ClusterView.notAnswering("IOException: Flink REST … answered 503", NOW),
                attached(3),
                "wait NOT_ANSWERING"));
        return rows.stream();
    }

    private static Arguments row(String row, ClusterView cluster, JobDecision.Application app, String expected) {
        return Arguments.of(row, cluster, app, expected);
    }

    private static String describe(JobDecision decision) {
        if (decision instanceof JobDecision.Start start) {
            return (start.putBack() ? "put back " : "start ") + start.generation();
        }
        if (decision instanceof JobDecision.Attach attach) {
            return "attach " + attach.run().generation() + " " + attach.how()
                    + (attach.why() == null
                            ? ""
                            : " (newer: " + attach.run().labels().version() + ")");
        }
        if (decision instanceof JobDecision.Upgrade upgrade) {
            return "upgrade " + upgrade.run().generation() + " " + upgrade.mode()
                    + (upgrade.notRunning() ? " (not running)" : "");
        }
        if (decision instanceof JobDecision.CancelOlder older) {
            return "cancel "
                    + older.runs().stream().map(run -> ID.generation(run.id())).toList();
        }
        if (decision instanceof JobDecision.Wait wait) {
            return "wait " + wait.why();
        }
        if (decision instanceof JobDecision.Refuse) {
            return "refuse";
        }
        if (decision instanceof JobDecision.LeaveStopped left) {
            return "leave " + left.run().state();
        }
        return "keep";
    }

    private static JobDecision.Application starting() {
        return app(Phase.STARTING, null, 0, UpgradeMode.SAVEPOINT, false);
    }

    private static JobDecision.Application attached(long generation) {
        return app(Phase.ATTACHED, ID.jobId(generation), generation, UpgradeMode.SAVEPOINT, false);
    }

    private static JobDecision.Application app(
            Phase phase, @Nullable JobID attached, long generation, UpgradeMode mode, boolean lastLook) {
        return new JobDecision.Application(
                phase, attached, generation, OURS, OWNER, null, false, mode, SUCCESSOR_WAIT, lastLook, false);
    }

    /** A starting instance of version {@code version}, a rollback allowed or not. */
    private static JobDecision.Application startingVersion(String version, boolean allowDowngrade) {
        return new JobDecision.Application(
                Phase.STARTING,
                null,
                0,
                OURS,
                OWNER,
                version,
                allowDowngrade,
                UpgradeMode.SAVEPOINT,
                SUCCESSOR_WAIT,
                false,
                false);
    }

    private static JobLabels labels(String fingerprint, String owner, String version) {
        Map<String, String> values =
                new LinkedHashMap<>(labels(fingerprint, owner).values());
        values.put(JobLabels.VERSION, version);
        return new JobLabels(values);
    }

    /** The cluster listing {@code runs}: the active ones newest first, as {@link ClusterJobs#view} reads them. */
    private static ClusterView view(List<Object> runs) {
        List<ClusterJob> listed = new ArrayList<>();
        List<ActiveRun> active = new ArrayList<>();
        for (Object run : runs) {
            if (run instanceof ActiveRun each) {
                active.add(each);
                listed.add(each.job());
            } else {
                listed.add((ClusterJob) run);
            }
        }
        active.sort((a, b) -> Long.compare(b.generation(), a.generation()));
        long last =
                listed.stream().mapToLong(run -> ID.generation(run.id())).max().orElse(0);
        return new ClusterView(
                null,
                List.of(),
                active.isEmpty() ? null : active.get(0),
                active.stream().skip(1).map(ActiveRun::job).toList(),
                listed,
                last,
                NOW);
    }

    private static ActiveRun active(long generation, JobStatus state, JobLabels labels) {
        return new ActiveRun(
                new ClusterJob(ID.jobId(generation), JOB, state, NOW.minusSeconds(600), null), generation, labels);
    }

    private static ClusterJob ended(long generation, JobStatus state, long secondsAgo) {
        return new ClusterJob(ID.jobId(generation), JOB, state, NOW.minusSeconds(3600), NOW.minusSeconds(secondsAgo));
    }

    private static JobLabels labels(@Nullable String fingerprint, @Nullable String owner) {
        Map<String, String> values = new LinkedHashMap<>();
        if (fingerprint != null) {
            values.put(JobLabels.FINGERPRINT, fingerprint);
            values.put(JobLabels.INSTANCE, "4242@other-host");
        }
        if (owner != null) {
            values.put(JobLabels.OWNER, owner);
        }
        return new JobLabels(values);
    }
}
