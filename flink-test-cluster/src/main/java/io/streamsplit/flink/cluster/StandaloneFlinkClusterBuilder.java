package io.streamsplit.flink.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settings of a {@link StandaloneFlinkCluster}; every one has a default that suits a test on a laptop
 * or CI machine. A session cluster by default; {@link #application(String, Path, String...)} makes it
 * an application cluster, as {@code bin/standalone-job.sh} starts one.
 */
public final class StandaloneFlinkClusterBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(StandaloneFlinkClusterBuilder.class);
    private static final String SESSION = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String APPLICATION =
            "org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint";
    private static final int PORT_ATTEMPTS = 3;

    private int taskSlots = 2;
    private int taskManagers = 1;
    private @Nullable Path workDir;
    private Duration startTimeout = Duration.ofSeconds(90);
    private final Map<String, String> configuration = new LinkedHashMap<>();
    private @Nullable String applicationClass;
    private @Nullable Path userLib;
    private final List<String> applicationArgs = new ArrayList<>();
    private String jobManagerHeap = "384m";
    private IntSupplier portProbe = StandaloneFlinkClusterBuilder::freePort;
    private boolean zooKeeperHighAvailability;

    StandaloneFlinkClusterBuilder() {}

    /** Slots of each TaskManager (default 2). */
    public StandaloneFlinkClusterBuilder taskSlots(int taskSlots) {
        this.taskSlots = taskSlots;
        return this;
    }

    /** How many TaskManager JVMs to start (default 1), each with {@link #taskSlots(int)} slots. */
    public StandaloneFlinkClusterBuilder taskManagers(int taskManagers) {
        this.taskManagers = taskManagers;
        return this;
    }

    /** Directory for configuration, logs and temporary files (default: a new one under java.io.tmpdir). */
    public StandaloneFlinkClusterBuilder workDir(Path workDir) {
        this.workDir = workDir;
        return this;
    }

    /** How long to wait for the JobManager and TaskManagers to come up (default 90 s). */
    public StandaloneFlinkClusterBuilder startTimeout(Duration startTimeout) {
        this.startTimeout = startTimeout;
        return this;
    }

    /** Any Flink option for all processes, e.g. {@code config("metrics.fetcher.update-interval", "500 ms")}. */
    public StandaloneFlinkClusterBuilder config(String key, String value) {
        configuration.put(key, value);
        return this;
    }

    /**
     * An application cluster: the JobManager is Flink's {@code StandaloneApplicationClusterEntryPoint},
     * which runs {@code mainClass} with {@code args} from the jars under {@code userLib} (linked into
     * the cluster's {@code usrlib/}, where a Flink image keeps the application's jars), and the cluster
     * ends when the application's jobs do. {@link #start()} also returns when the application ends its
     * cluster while it starts (a startup failure): see {@code awaitJobManagerExit}. Flink's own options go in {@code args} as a distribution's
     * {@code standalone-job.sh} passes them, e.g. {@code --fromSavepoint <path>}.
     */
    public StandaloneFlinkClusterBuilder application(String mainClass, Path userLib, String... args) {
        this.applicationClass = mainClass;
        this.userLib = userLib;
        this.applicationArgs.addAll(List.of(args));
        this.jobManagerHeap = "640m"; // the application's own context runs in it
        return this;
    }

    /**
     * Flink's ZooKeeper high availability, as a production session cluster runs it: a real ZooKeeper server in its
     * own JVM (see {@link ZooKeeperServer}), {@code high-availability.type: zookeeper} and the HA storage under the
     * work directory. A JobManager killed and started again recovers the cluster's jobs from there, with the same
     * job ids, from their latest completed checkpoints.
     */
    public StandaloneFlinkClusterBuilder zooKeeperHighAvailability() {
        this.zooKeeperHighAvailability = true;
        return this;
    }

    /** Where the JobManager's ports come from (a test hands out a taken one). */
    StandaloneFlinkClusterBuilder portProbe(IntSupplier portProbe) {
        this.portProbe = portProbe;
        return this;
    }

    /**
     * Writes {@code config.yaml}, starts the JVMs and waits until the TaskManagers' slots are registered.
     * The JobManager's ports are probed free just before it binds them; when another process takes one
     * in between (a busy build starts many), the JobManager fails with a {@code BindException} and the
     * cluster starts again on fresh ports, up to three times.
     */
    public StandaloneFlinkCluster start() {
        try {
            Path dir = workDir != null
                    ? workDir
                    : Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "flink-cluster-");
            Files.createDirectories(dir.resolve("conf"));
            Files.createDirectories(dir.resolve("tmp"));
            JobManager jobManager = jobManager(dir);
            for (int attempt = 1; ; attempt++) {
                int restPort = portProbe.getAsInt();
                int rpcPort = portProbe.getAsInt();
                // each attempt's cluster owns its ZooKeeper: a cluster closed after a lost port race stops it
                ZooKeeperServer zooKeeper = null;
                if (zooKeeperHighAvailability) {
                    zooKeeper = ZooKeeperServer.start(
                            dir, StandaloneFlinkCluster.JAVA, StandaloneFlinkCluster.clusterClasspath());
                    configuration.put("high-availability.type", "zookeeper");
                    configuration.put("high-availability.zookeeper.quorum", zooKeeper.quorum());
                    configuration.put(
                            "high-availability.storageDir",
                            dir.resolve("ha").toUri().toString());
                    // a JobManager killed with -9 holds its leadership until its ZooKeeper session expires: 6 s
                    // (ZooKeeper's least, two ticks) instead of Flink's 60 s, so that the next one leads soon
                    configuration.putIfAbsent("high-availability.zookeeper.client.session-timeout", "6 s");
                    // with HA the JobManager's RPC port is this one, not jobmanager.rpc.port
                    configuration.put("high-availability.jobmanager.port", Integer.toString(rpcPort));
                }
                writeConfig(dir, restPort, rpcPort);
                StandaloneFlinkCluster cluster =
                        new StandaloneFlinkCluster(dir, restPort, taskSlots, jobManager).withZooKeeper(zooKeeper);
                IllegalStateException notStarted = null;
                try {
                    cluster.startProcesses(taskManagers, startTimeout, jobManagerHeap);
                } catch (IllegalStateException e) {
                    notStarted = e;
                }
                if (attempt < PORT_ATTEMPTS && lostPortRace(cluster, dir, restPort, rpcPort)) {
                    cluster.close();
                    LOG.info(
                            "Another process took a port of the Flink JobManager in {} as it started (a"
                                    + " BindException in jobmanager.log); starting the cluster again on fresh ports",
                            dir);
                    continue;
                }
                if (notStarted != null) {
                    throw notStarted;
                }
                LOG.info(
                        "Standalone Flink {} cluster up at {} ({} slots), work dir {}",
                        applicationClass == null ? "session" : "application",
                        cluster.restAddress(),
                        taskSlots * taskManagers,
                        dir);
                return cluster;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the standalone Flink test cluster", e);
        }
    }

    /**
     * Whether the JobManager exited because one of {@code ports}, probed free for it, was taken meanwhile: its
     * log has a {@code BindException} naming the port (not one of an application's own, which fails as it is).
     */
    private static boolean lostPortRace(StandaloneFlinkCluster cluster, Path dir, int... ports) {
        if (cluster.isJobManagerAlive()) {
            return false;
        }
        try (Stream<String> lines = Files.lines(dir.resolve("jobmanager.log"), StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.contains("BindException"))
                    .anyMatch(line -> Arrays.stream(ports).anyMatch(port -> line.matches(".*\\D" + port + "(\\D.*)?")));
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    /** Writes {@code conf/config.yaml} with the JobManager's REST and RPC ports. */
    private void writeConfig(Path dir, int restPort, int rpcPort) throws IOException {
        Map<String, String> config = defaults(dir, restPort, rpcPort);
        config.putAll(configuration);
        StringBuilder yaml = new StringBuilder();
        config.forEach((key, value) ->
                yaml.append(key).append(": ").append(quoted(value)).append('\n'));
        Files.writeString(dir.resolve("conf").resolve("config.yaml"), yaml.toString());
    }

    /** The JobManager's entry point, its arguments and environment. */
    record JobManager(String mainClass, List<String> args, Map<String, String> environment) {

        /** Whether the JobManager runs an application, and ends with it. */
        boolean application() {
            return mainClass.equals(APPLICATION);
        }
    }

    private JobManager jobManager(Path dir) throws IOException {
        if (applicationClass == null) {
            return new JobManager(SESSION, List.of(), Map.of());
        }
        // Flink finds usrlib/ next to the lib/ directory that FLINK_LIB_DIR names, as in a distribution
        Path usrlib = Files.createDirectories(dir.resolve("usrlib"));
        Files.createDirectories(dir.resolve("lib"));
        try (Stream<Path> files = Files.walk(userLib)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = usrlib.resolve(userLib.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.createSymbolicLink(target, file.toAbsolutePath());
            }
        }
        List<String> args = new ArrayList<>(List.of("--job-classname", applicationClass));
        args.addAll(applicationArgs);
        return new JobManager(
                APPLICATION, args, Map.of("FLINK_LIB_DIR", dir.resolve("lib").toString()));
    }

    private Map<String, String> defaults(Path dir, int restPort, int rpcPort) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("jobmanager.rpc.address", "localhost");
        config.put("jobmanager.rpc.port", Integer.toString(rpcPort));
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
        return config;
    }

    private static String quoted(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /** A port no socket holds at this moment. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port for the Flink JobManager", e);
        }
    }
}
