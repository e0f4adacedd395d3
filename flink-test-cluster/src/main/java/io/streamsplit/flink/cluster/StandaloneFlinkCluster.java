package io.streamsplit.flink.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real standalone Flink session cluster for tests: one JobManager
 * ({@code StandaloneSessionClusterEntrypoint}) and one or more TaskManagers ({@code TaskManagerRunner}),
 * each in its own JVM with only Flink's jars (and a logging binding) on its classpath, as {@code bin/start-cluster.sh}
 * would start them from a distribution. The classpath is resolved by this module's build
 * ({@code flink-cluster.classpath}), so the cluster runs the project's Flink version.
 *
 * <pre>{@code
 * try (StandaloneFlinkCluster cluster = StandaloneFlinkCluster.builder().taskSlots(2).start()) {
 *     URI rest = cluster.restAddress();      // submit jobs here
 * }                                          // both JVMs are gone
 * }</pre>
 *
 * <p>{@link #killTaskManager(int)} kills a TaskManager as {@code kill -9} would and
 * {@link #startTaskManager()} starts a replacement, for recovery tests; {@link #killJobManager()} and
 * {@link #startJobManager()} do the same to the JobManager: a fresh one at the same address, which
 * (without high availability) knows no job, as a restarted JobManager pod.
 *
 * <p>Processes are killed on {@link #close()} and, as a last resort, by a JVM shutdown hook, so a
 * failing test does not leave a cluster behind. Logs go to {@code <workDir>/jobmanager.log} and
 * {@code taskmanager.log}; a cluster that does not come up fails with their last lines.
 */
public final class StandaloneFlinkCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StandaloneFlinkCluster.class);
    private static final String TASK_MANAGER = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final List<String> OPENS = List.of(
            "java.lang",
            "java.lang.reflect",
            "java.net",
            "java.io",
            "java.nio",
            "sun.nio.ch",
            "java.text",
            "java.time",
            "java.util",
            "java.util.concurrent",
            "java.util.concurrent.atomic",
            "java.util.concurrent.locks");
    private static final Pattern TASK_MANAGERS = Pattern.compile("\"taskmanagers\"\\s*:\\s*(\\d+)");
    private static final Pattern SLOTS = Pattern.compile("\"slots-total\"\\s*:\\s*(\\d+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"([A-Z_]+)\"");

    private final Path workDir;
    private final int restPort;
    private final int taskSlots;
    private final List<Process> processes = new ArrayList<>();
    /** TaskManager JVMs by index; a killed one stays in the list, dead. */
    private final List<Process> taskManagers = new ArrayList<>();

    private final String classpath = clusterClasspath();
    private final Thread shutdownHook = new Thread(this::kill, "flink-test-cluster-shutdown");
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String jobManagerClass;
    private final List<String> jobManagerArgs;
    private final Map<String, String> jobManagerEnvironment;
    private final boolean application;
    private String jobManagerHeap = "256m";
    private @Nullable ZooKeeperServer zooKeeper;
    private int jobManagerStarts = 1;

    StandaloneFlinkCluster(
            Path workDir, int restPort, int taskSlots, StandaloneFlinkClusterBuilder.JobManager jobManager) {
        this.workDir = workDir;
        this.restPort = restPort;
        this.taskSlots = taskSlots;
        this.jobManagerClass = jobManager.mainClass();
        this.jobManagerArgs = jobManager.args();
        this.jobManagerEnvironment = jobManager.environment();
        this.application = jobManager.application();
    }

    /** Starts the JobManager JVM and {@code taskManagers} TaskManager JVMs, and waits until their slots are there. */
    StandaloneFlinkCluster startProcesses(int taskManagers, Duration timeout, String jobManagerHeap)
            throws IOException {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        this.jobManagerHeap = jobManagerHeap;
        launch("jobmanager", jobManagerClass, jobManagerHeap, jobManagerArgs, jobManagerEnvironment);
        for (int i = 0; i < taskManagers; i++) {
            startTaskManager();
        }
        awaitReady(taskManagers, timeout);
        return this;
    }

    /** The cluster's ZooKeeper, stopped with it (high availability); {@code null} for none. */
    StandaloneFlinkCluster withZooKeeper(@Nullable ZooKeeperServer zooKeeper) {
        this.zooKeeper = zooKeeper;
        return this;
    }

    /** Whether the JobManager JVM runs (an application cluster's ends when its application does). */
    public boolean isJobManagerAlive() {
        return processes.get(0).isAlive();
    }

    /** Waits up to {@code timeout} for the JobManager JVM to exit; its exit code, or -1 if it still runs. */
    public int awaitJobManagerExit(Duration timeout) throws InterruptedException {
        Process jobManager = processes.get(0);
        return jobManager.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? jobManager.exitValue() : -1;
    }

    /** Kills the JobManager as {@code kill -9} would (no shutdown hooks) and waits until it is gone. */
    public void killJobManager() {
        Process jobManager = processes.get(0);
        jobManager.destroyForcibly();
        try {
            if (!jobManager.waitFor(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("The JobManager (pid " + jobManager.pid() + ") did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        LOG.info("Killed the Flink JobManager (pid {})", jobManager.pid());
    }

    /**
     * Starts a fresh JobManager at the same ports after {@link #killJobManager()}, and waits until it answers
     * and the TaskManagers still alive have registered with it. Its log is {@code jobmanager-<n>.log}.
     */
    public void startJobManager() {
        if (isJobManagerAlive()) {
            throw new IllegalStateException("The JobManager still runs; kill it first");
        }
        jobManagerStarts++;
        try {
            Process started = launch(
                    "jobmanager-" + jobManagerStarts,
                    jobManagerClass,
                    jobManagerHeap,
                    jobManagerArgs,
                    jobManagerEnvironment);
            processes.remove(started);
            processes.set(0, started);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the JobManager again", e);
        }
        awaitReady(liveTaskManagers().size(), Duration.ofSeconds(60));
    }

    /** Kills TaskManager {@code index} as {@code kill -9} would (no shutdown hooks) and waits until it is gone. */
    public void killTaskManager(int index) {
        Process taskManager = taskManagers.get(index);
        taskManager.destroyForcibly();
        try {
            if (!taskManager.waitFor(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException(
                        "TaskManager " + index + " (pid " + taskManager.pid() + ") did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        LOG.info("Killed Flink TaskManager {} (pid {})", index, taskManager.pid());
    }

    /** The indexes of the TaskManagers that are alive, in the order they were started. */
    public List<Integer> liveTaskManagers() {
        List<Integer> live = new ArrayList<>();
        for (int i = 0; i < taskManagers.size(); i++) {
            if (taskManagers.get(i).isAlive()) {
                live.add(i);
            }
        }
        return live;
    }

    /** Starts one more TaskManager JVM; returns its index. Its slots register with the JobManager shortly after. */
    public int startTaskManager() {
        int index = taskManagers.size();
        try {
            taskManagers.add(launch(
                    index == 0 ? "taskmanager" : "taskmanager-" + index, TASK_MANAGER, "512m", List.of(), Map.of()));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start TaskManager " + index, e);
        }
        return index;
    }

    /** A builder with one TaskManager of two slots and a work directory under {@code java.io.tmpdir}. */
    public static StandaloneFlinkClusterBuilder builder() {
        return new StandaloneFlinkClusterBuilder();
    }

    /** The cluster's REST endpoint, e.g. {@code http://localhost:41234}. */
    public URI restAddress() {
        return URI.create("http://localhost:" + restPort);
    }

    /** The port of the cluster's REST endpoint. */
    public int restPort() {
        return restPort;
    }

    /** Where the cluster's configuration, logs and temporary files live. */
    public Path workDir() {
        return workDir;
    }

    /** The job's state as the cluster's REST API reports it ({@code RUNNING}, {@code CANCELED}, ...). */
    public String jobState(String jobId) {
        String body = get("/jobs/" + jobId);
        Matcher state = STATE.matcher(body);
        if (!state.find()) {
            throw new IllegalStateException("No state in GET /jobs/" + jobId + ": " + body);
        }
        return state.group(1);
    }

    /** Whether job {@code jobId} runs and every one of its vertices does: recovered, not just restarting. */
    public boolean allTasksRunning(String jobId) {
        JsonNode job;
        try {
            job = JSON.readTree(get("/jobs/" + jobId));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!job.path("state").asText().equals("RUNNING")
                || job.path("vertices").isEmpty()) {
            return false;
        }
        for (JsonNode vertex : job.path("vertices")) {
            if (!vertex.path("status").asText().equals("RUNNING")) {
                return false;
            }
        }
        return true;
    }

    /** The raw body of a GET on the cluster's REST API, e.g. {@code get("/jobs/overview")}. */
    public String get(String path) {
        return send("GET", path, HttpRequest.BodyPublishers.noBody(), REQUEST_TIMEOUT, 200);
    }

    /** The raw body of a POST of {@code json} on the cluster's REST API, e.g. {@code post("/jobs/<id>/stop", …)}. */
    public String post(String path, String json) {
        return send("POST", path, HttpRequest.BodyPublishers.ofString(json), REQUEST_TIMEOUT, 200, 202);
    }

    /** Cancels job {@code jobId} ({@code PATCH /jobs/<id>?mode=cancel}); returns once the cluster accepted it. */
    public void cancel(String jobId) {
        send("PATCH", "/jobs/" + jobId + "?mode=cancel", HttpRequest.BodyPublishers.noBody(), REQUEST_TIMEOUT, 202);
    }

    private String send(String method, String path, HttpRequest.BodyPublisher body, Duration timeout, int... expected) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(restAddress().resolve(path))
                            .timeout(timeout)
                            .header("Content-Type", "application/json")
                            .method(method, body)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (java.util.Arrays.stream(expected).noneMatch(code -> code == response.statusCode())) {
                throw new IllegalStateException(
                        method + " " + path + " answered HTTP " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " on the Flink test cluster failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Kills both JVMs (and anything they started) and waits for them to exit. */
    @Override
    public void close() {
        kill();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook runs anyway
        }
    }

    private void kill() {
        for (Process process : processes) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        for (Process process : processes) {
            try {
                process.waitFor(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    private Process launch(String name, String mainClass, String heap, List<String> args, Map<String, String> env)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(JAVA));
        // what a distribution's bin/ scripts pass from env.java.default-opts.all: Flink needs them on
        // Java 17 (an application cluster's entry point fails without java.util)
        for (String module : OPENS) {
            command.add("--add-opens=java.base/" + module + "=ALL-UNNAMED");
        }
        command.addAll(List.of(
                "-Xmx" + heap,
                "-XX:MaxDirectMemorySize=256m",
                "-XX:+UseSerialGC",
                "-Djava.io.tmpdir=" + workDir.resolve("tmp"),
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                "-cp",
                classpath,
                mainClass,
                "--configDir",
                workDir.resolve("conf").toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        Process process = builder.directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve(name + ".log").toFile())
                .start();
        processes.add(process);
        LOG.info("Started Flink {} (pid {}), log {}", name, process.pid(), workDir.resolve(name + ".log"));
        return process;
    }

    private void awaitReady(int taskManagerCount, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            for (Process process : processes) {
                if (!process.isAlive() && !taskManagers.contains(process)) {
                    if (application) {
                        // an application that fails at startup ends its cluster, maybe before every
                        // TaskManager registered: that is its outcome (awaitJobManagerExit, the log)
                        return;
                    }
                    throw notReady("a cluster process exited with code " + process.exitValue());
                }
            }
            try {
                // a starting JobManager answers in milliseconds; a process that took its port may never
                last = send("GET", "/overview", HttpRequest.BodyPublishers.noBody(), Duration.ofSeconds(1), 200);
                Matcher tms = TASK_MANAGERS.matcher(last);
                Matcher total = SLOTS.matcher(last);
                if (tms.find()
                        && total.find()
                        && Integer.parseInt(tms.group(1)) >= taskManagerCount
                        && Integer.parseInt(total.group(1)) >= taskManagerCount * taskSlots) {
                    return;
                }
            } catch (RuntimeException notYet) {
                last = notYet.getMessage();
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw notReady("not ready after " + timeout + " (last /overview: " + last + ")");
    }

    private IllegalStateException notReady(String why) {
        StringBuilder message =
                new StringBuilder("The standalone Flink test cluster in " + workDir + " did not start: " + why);
        for (String name : List.of("jobmanager", "taskmanager")) {
            message.append("\n--- last lines of ")
                    .append(name)
                    .append(".log ---\n")
                    .append(tail(name + ".log"));
        }
        close();
        return new IllegalStateException(message.toString());
    }

    private String tail(String file) {
        try {
            List<String> lines = Files.readAllLines(workDir.resolve(file), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** The jars on the JobManager's and TaskManager's classpath: Flink's runtime and what it depends on. */
    public static List<Path> classpath() {
        return java.util.Arrays.stream(clusterClasspath().split(java.io.File.pathSeparator))
                .map(Path::of)
                .toList();
    }

    static String clusterClasspath() {
        try (InputStream in = StandaloneFlinkCluster.class.getResourceAsStream("flink-cluster.classpath")) {
            if (in == null) {
                throw new IllegalStateException("flink-cluster.classpath is missing; build the"
                        + " streamsplit-flink-test-cluster module with Maven (it resolves Flink's jars)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
