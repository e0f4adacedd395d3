package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One variant's recovery run for {@link RecoveryBenchmark}: its job submitted to the cluster (the starter's
 * app in remote mode, or the hand-wired job's client), payments at a fixed rate, a spare TaskManager
 * started, the job's TaskManager killed, the recovery's {@link RecoveryTimeline}, and every payment answered
 * exactly once. Afterwards the job is cancelled and its client stopped; the spare is the cluster's only
 * TaskManager, as the killed one was at the start.
 */
final class RecoveryRun {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What the hand-wired job takes to the cluster besides its own jar (what a user's fat jar would hold). */
    private static final Pattern HAND_WIRED_JARS = Pattern.compile(
            "^((flink-connector-kafka|flink-connector-base|kafka-clients|zstd-jni|jackson-annotations)-.*|jackson-(core|databind)-3\\..*)\\.jar$");

    private final PipelineVariant variant;
    private final PipelineBenchmark.Settings settings;
    private final StandaloneFlinkCluster cluster;
    private final String bootstrap;
    private final PipelineVariant.Jars jars;
    private final Path log;
    private final String name;
    private final int rate;
    private final String extraArgs;

    RecoveryRun(
            PipelineVariant variant,
            PipelineBenchmark.Settings settings,
            StandaloneFlinkCluster cluster,
            String bootstrap,
            PipelineVariant.Jars jars,
            Path work,
            String name,
            int rate,
            String extraArgs) {
        this.variant = variant;
        this.settings = settings;
        this.cluster = cluster;
        this.bootstrap = bootstrap;
        this.jars = jars;
        this.log = work.resolve(name + "-" + variant.label + ".log");
        this.name = name;
        this.rate = rate;
        this.extraArgs = extraArgs;
    }

    RecoveryTimeline measure() throws Exception {
        List<Integer> live = cluster.liveTaskManagers();
        if (live.size() != 1) {
            throw new IllegalStateException("Expected one TaskManager before a run, found " + live);
        }
        Process client = new ProcessBuilder(command())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        String jobId = null;
        try (PaymentTraffic traffic =
                new PaymentTraffic(bootstrap, name + ".in", name + ".out", rate, settings.accounts())) {
            jobId = awaitRunningJob(client);
            traffic.start();
            String id = jobId;
            RecoveryBenchmark.await(Duration.ofSeconds(120), "the first output", () -> traffic.answered() > 0);
            long checkpoints = completedCheckpoints(id);
            RecoveryBenchmark.await(
                    Duration.ofSeconds(60),
                    "three more checkpoints",
                    () -> completedCheckpoints(id) >= checkpoints + 3);
            cluster.startTaskManager();
            RecoveryBenchmark.await(
                    Duration.ofSeconds(120),
                    "the spare TaskManager's slots",
                    () -> JSON.readTree(cluster.get("/overview"))
                                    .path("slots-total")
                                    .asInt()
                            >= 2 * settings.parallelism());
            // the kill lands anywhere in the checkpoint interval, not always at the same phase
            TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current()
                    .nextLong(settings.checkpointInterval().toMillis() + 1));
            long restartsBefore = restarts(id);
            long killedAt = System.currentTimeMillis();
            traffic.watchFrom(killedAt);
            cluster.killTaskManager(live.get(0));
            RecoveryBenchmark.await(
                    Duration.ofSeconds(180),
                    "an answer to a payment sent after the kill",
                    () -> traffic.firstAnswerAfter() > 0);
            long firstOutputAt = traffic.firstAnswerAfter();
            RecoveryBenchmark.await(Duration.ofSeconds(60), "every task running", () -> cluster.allTasksRunning(id));
            RecoveryTimeline timeline = RecoveryTimeline.of(
                    variant.label,
                    killedAt,
                    JSON.readTree(cluster.get("/jobs/" + id + "/exceptions")),
                    subtaskTimes(id),
                    firstOutputAt,
                    restarts(id) - restartsBefore);
            TimeUnit.SECONDS.sleep(2);
            long sent = traffic.stopSending();
            RecoveryBenchmark.await(
                    Duration.ofSeconds(120), "every payment answered", () -> traffic.answered() >= sent);
            if (traffic.answered() != sent || traffic.duplicates() > 0) {
                throw new IllegalStateException(variant.label + ": " + sent + " payments sent, " + traffic.answered()
                        + " answered, " + traffic.duplicates() + " answered twice");
            }
            traffic.rethrow();
            return timeline;
        } catch (RuntimeException | Error e) {
            throw new IllegalStateException(
                    variant.label + " failed (" + e.getMessage() + "); its log:\n" + PipelineProcess.tail(log), e);
        } finally {
            client.destroy();
            if (!client.waitFor(30, TimeUnit.SECONDS)) {
                client.destroyForcibly().waitFor();
            }
            if (jobId != null) {
                cancel(jobId);
            }
        }
    }

    private List<String> command() throws IOException {
        String remote = "localhost:" + cluster.restPort();
        if (variant.job == PipelineVariant.Job.HAND_WIRED_TOTALS) {
            List<String> command = variant.command(settings, "", jars, bootstrap, name + ".in", name, name + ".out");
            command.addAll(List.of("--remote", remote, "--jars", String.join(",", handWiredJars())));
            if (!extraArgs.isBlank()) {
                command.addAll(List.of("--config", extraArgs.trim()));
            }
            return command;
        }
        String appArgs = "--streamsplit.flink.mode=remote --streamsplit.flink.remote.host=localhost"
                + " --streamsplit.flink.remote.port=" + cluster.restPort() + " " + extraArgs;
        return variant.command(settings, appArgs, jars, bootstrap, name + ".in", name, name + ".out");
    }

    private List<String> handWiredJars() throws IOException {
        Path jar = this.jars.streamSplit();
        List<String> jars = new ArrayList<>(List.of(jar.toString()));
        try (Stream<Path> lib = Files.list(jar.resolveSibling("lib"))) {
            lib.filter(file -> HAND_WIRED_JARS
                            .matcher(file.getFileName().toString())
                            .matches())
                    .map(Path::toString)
                    .sorted()
                    .forEach(jars::add);
        }
        if (jars.stream().noneMatch(j -> j.contains(File.separator + "flink-connector-kafka-"))) {
            throw new IllegalStateException("No flink-connector-kafka jar next to " + jar);
        }
        return jars;
    }

    /** Waits until the cluster runs a job with every task RUNNING; its id. */
    private String awaitRunningJob(Process client) throws Exception {
        String[] found = new String[1];
        RecoveryBenchmark.await(Duration.ofSeconds(180), variant.label + "'s job running on the cluster", () -> {
            if (!client.isAlive()) {
                throw new IllegalStateException("The client JVM exited before its job ran");
            }
            for (JsonNode job : JSON.readTree(cluster.get("/jobs/overview")).path("jobs")) {
                if (job.path("state").asText().equals("RUNNING")
                        && cluster.allTasksRunning(job.path("jid").asText())) {
                    found[0] = job.path("jid").asText();
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    private List<JsonNode> subtaskTimes(String jobId) {
        List<JsonNode> times = new ArrayList<>();
        for (JsonNode vertex : JSON.readTree(cluster.get("/jobs/" + jobId)).path("vertices")) {
            times.add(JSON.readTree(cluster.get(
                    "/jobs/" + jobId + "/vertices/" + vertex.path("id").asText() + "/subtasktimes")));
        }
        return times;
    }

    private long completedCheckpoints(String jobId) {
        return JSON.readTree(cluster.get("/jobs/" + jobId + "/checkpoints"))
                .path("counts")
                .path("completed")
                .asLong();
    }

    private long restarts(String jobId) {
        for (JsonNode metric : JSON.readTree(cluster.get("/jobs/" + jobId + "/metrics?get=numRestarts"))) {
            return metric.path("value").asLong(0);
        }
        return 0;
    }

    private void cancel(String jobId) throws Exception {
        String state = cluster.jobState(jobId);
        if (state.equals("RUNNING") || state.equals("RESTARTING") || state.equals("CREATED")) {
            cluster.cancel(jobId);
        }
        RecoveryBenchmark.await(Duration.ofSeconds(60), "job " + jobId + " cancelled", () -> {
            String now = cluster.jobState(jobId);
            return now.equals("CANCELED") || now.equals("FAILED") || now.equals("FINISHED");
        });
    }
}
