package io.streamsplit.flink.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * {@link #startTaskManager()} starts a replacement, for recovery tests.
 *
 * <p>Processes are killed on {@link #close()} and, as a last resort, by a JVM shutdown hook, so a
 * failing test does not leave a cluster behind. Logs go to {@code <workDir>/jobmanager.log} and
 * {@code taskmanager.log}; a cluster that does not come up fails with their last lines.
 */
public final class StandaloneFlinkCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StandaloneFlinkCluster.class);
    private static final String JOB_MANAGER = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String TASK_MANAGER = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    private static final Pattern TASK_MANAGERS = Pattern.compile("\"taskmanagers\"\\s*:\\s*(\\d+)");
    private static final Pattern SLOTS = Pattern.compile("\"slots-total\"\\s*:\\s*(\\d+)");
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

    private StandaloneFlinkCluster(Path workDir, int restPort, int taskSlots) {
        this.workDir = workDir;
        this.restPort = restPort;
        this.taskSlots = taskSlots;
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
            taskManagers.add(launch(index == 0 ? "taskmanager" : "taskmanager-" + index, TASK_MANAGER, "512m"));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start TaskManager " + index, e);
        }
        return index;
    }

    /** A builder with one TaskManager of two slots and a work directory under {@code java.io.tmpdir}. */
    public static Builder builder() {
        return new Builder();
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

    /** The raw body of a GET on the cluster's REST API, e.g. {@code get("/jobs/overview")}. */
    public String get(String path) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(restAddress().resolve(path))
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        "GET " + path + " answered HTTP " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path + " on the Flink test cluster failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Cancels job {@code jobId} ({@code PATCH /jobs/<id>?mode=cancel}); returns once the cluster accepted it. */
    public void cancel(String jobId) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(restAddress().resolve("/jobs/" + jobId + "?mode=cancel"))
                            .timeout(Duration.ofSeconds(10))
                            .method("PATCH", HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 202) {
                throw new IllegalStateException(
                        "Cancelling job " + jobId + " answered HTTP " + response.statusCode() + ": " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cancelling job " + jobId + " on the Flink test cluster failed", e);
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
    }

    private Process launch(String name, String mainClass, String heap) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
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
        Process process = new ProcessBuilder(command)
                .directory(workDir.toFile())
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
                    throw notReady("a cluster process exited with code " + process.exitValue());
                }
            }
            try {
                last = get("/overview");
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

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Cluster settings; every one has a default that suits a test on a laptop or CI machine. */
    public static final class Builder {

        private int taskSlots = 2;
        private int taskManagers = 1;
        private Path workDir;
        private Duration startTimeout = Duration.ofSeconds(90);
        private final Map<String, String> configuration = new LinkedHashMap<>();

        private Builder() {}

        /** Slots of the one TaskManager (default 2): the largest parallelism a job can run with. */
        public Builder taskSlots(int taskSlots) {
            this.taskSlots = taskSlots;
            return this;
        }

        /** How many TaskManager JVMs to start (default 1), each with {@link #taskSlots(int)} slots. */
        public Builder taskManagers(int taskManagers) {
            this.taskManagers = taskManagers;
            return this;
        }

        /** Directory for configuration, logs and temporary files (default: a new one under java.io.tmpdir). */
        public Builder workDir(Path workDir) {
            this.workDir = workDir;
            return this;
        }

        /** How long to wait for the JobManager and TaskManager to come up (default 90 s). */
        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        /** Any Flink option for both processes, e.g. {@code config("metrics.fetcher.update-interval", "500 ms")}. */
        public Builder config(String key, String value) {
            configuration.put(key, value);
            return this;
        }

        /** Writes {@code config.yaml}, starts both JVMs and waits until the TaskManager's slots are registered. */
        public StandaloneFlinkCluster start() {
            try {
                Path dir = workDir != null
                        ? workDir
                        : Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "flink-cluster-");
                Files.createDirectories(dir.resolve("conf"));
                Files.createDirectories(dir.resolve("tmp"));
                int restPort = freePort();
                Map<String, String> config = new LinkedHashMap<>();
                config.put("jobmanager.rpc.address", "localhost");
                config.put("jobmanager.rpc.port", Integer.toString(freePort()));
                config.put("jobmanager.bind-host", "localhost");
                config.put("rest.address", "localhost");
                config.put("rest.bind-address", "localhost");
                config.put("rest.port", Integer.toString(restPort));
                config.put("taskmanager.host", "localhost");
                config.put("taskmanager.bind-host", "localhost");
                config.put("taskmanager.numberOfTaskSlots", Integer.toString(taskSlots));
                // bin/taskmanager.sh derives these from taskmanager.memory.process.size; TaskManagerRunner
                // started directly needs them spelled out
                config.put("taskmanager.cpu.cores", Integer.toString(taskSlots));
                config.put("taskmanager.memory.task.heap.size", "256m");
                config.put("taskmanager.memory.task.off-heap.size", "0m");
                config.put("taskmanager.memory.framework.heap.size", "128m");
                config.put("taskmanager.memory.framework.off-heap.size", "128m");
                config.put("taskmanager.memory.jvm-metaspace.size", "256m");
                config.put("taskmanager.memory.jvm-overhead.min", "192m");
                config.put("taskmanager.memory.jvm-overhead.max", "192m");
                config.put("taskmanager.memory.managed.size", "32m");
                config.put("taskmanager.memory.network.min", "64m");
                config.put("taskmanager.memory.network.max", "64m");
                config.put("jobmanager.memory.process.size", "512m");
                config.put("io.tmp.dirs", dir.resolve("tmp").toString());
                config.put("web.tmpdir", dir.resolve("tmp").toString());
                config.putAll(configuration);
                StringBuilder yaml = new StringBuilder();
                config.forEach((key, value) ->
                        yaml.append(key).append(": ").append(quoted(value)).append('\n'));
                Files.writeString(dir.resolve("conf").resolve("config.yaml"), yaml.toString());

                StandaloneFlinkCluster cluster = new StandaloneFlinkCluster(dir, restPort, taskSlots);
                Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
                cluster.launch("jobmanager", JOB_MANAGER, "384m");
                for (int i = 0; i < taskManagers; i++) {
                    cluster.startTaskManager();
                }
                cluster.awaitReady(taskManagers, startTimeout);
                LOG.info(
                        "Standalone Flink cluster up at {} ({} slots), work dir {}",
                        cluster.restAddress(),
                        taskSlots,
                        dir);
                return cluster;
            } catch (IOException e) {
                throw new UncheckedIOException("Could not start the standalone Flink test cluster", e);
            }
        }

        private static String quoted(String value) {
            return "'" + value.replace("'", "''") + "'";
        }
    }
}
