package io.streamsplit.boot.flink.embedded;

import io.streamsplit.connector.kafka.trace.RecordTracer;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.client.ClientUtils;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.runtime.scheduler.ExecutionGraphInfo;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.ClassUtils;

/**
 * The application's own in-process Flink MiniCluster (embedded mode). Started on the first job
 * submission and closed with the application context. Unlike Flink's local executor, which starts
 * a MiniCluster per {@code execute()} and tears it down when the job ends, this one belongs to the
 * context: health checks and the split endpoint can reach the running job in-process, and two
 * application contexts in one JVM each have their own cluster.
 */
public class EmbeddedFlinkCluster implements DisposableBean {

    public static final String EXECUTOR_NAME = "streamsplit-embedded";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedFlinkCluster.class);
    private static final String LOGBACK = "ch.qos.logback.classic.LoggerContext";

    private final Configuration configuration;
    private volatile @Nullable MiniCluster miniCluster;
    private volatile boolean closed;
    /** The start begun by {@link #startInBackground()}; done when the cluster runs (or could not start). */
    private volatile CompletableFuture<Void> backgroundStart = CompletableFuture.completedFuture(null);

    private @Nullable URL emptyClasspathEntry;

    private final InProcessMetrics inProcessMetrics = InProcessMetrics.create();
    private final String applicationId = "streamsplit-" + UUID.randomUUID();

    public EmbeddedFlinkCluster(Configuration configuration) {
        this.configuration = new Configuration(configuration);
        inProcessMetrics.flinkConfiguration().forEach(this.configuration::setString);
        // the cluster's readers find the application's record tracer by it
        this.configuration.setString(RecordTracer.APPLICATION_ID, applicationId);
    }

    /** The id this application's sinks and readers find its listeners and tracer by, in this JVM. */
    public String applicationId() {
        return applicationId;
    }

    /** The Kafka source metrics of this cluster's jobs, read in-process (Actuator uses them). */
    public InProcessMetrics inProcessMetrics() {
        return inProcessMetrics;
    }

    /** The MiniCluster, started on first use. */
    public synchronized MiniCluster miniCluster() throws Exception {
        if (closed) {
            throw new IllegalStateException("The embedded Flink MiniCluster is closed with its application context");
        }
        MiniCluster started = miniCluster;
        if (started == null) {
            MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                    .setConfiguration(configuration)
                    .setNumTaskManagers(1)
                    .setNumSlotsPerTaskManager(configuration.get(TaskManagerOptions.NUM_TASK_SLOTS))
                    .setRpcServiceSharing(RpcServiceSharing.SHARED)
                    .build());
            if (ClassUtils.isPresent(LOGBACK, EmbeddedFlinkCluster.class.getClassLoader())) {
                KnownFlinkWarnings.install();
            }
            try (AutoCloseable quiet = ReporterLookupLogging.quietWhileClusterStarts()) {
                cluster.start();
            }
            miniCluster = cluster;
            started = cluster;
            LOG.info(
                    "Started embedded Flink MiniCluster: {} task slots, managed memory {}, network memory {},"
                            + " REST {}",
                    configuration.get(TaskManagerOptions.NUM_TASK_SLOTS),
                    configuration.get(TaskManagerOptions.MANAGED_MEMORY_SIZE).toHumanReadableString(),
                    configuration.get(TaskManagerOptions.NETWORK_MEMORY_MAX).toHumanReadableString(),
                    cluster.getRestAddress().get(10, TimeUnit.SECONDS));
        }
        return started;
    }

    /**
     * Starts the cluster on a daemon thread now, so that its start (about a second of RPC, blob
     * server and task manager services) overlaps the rest of the context's refresh instead of
     * following it. A failure here is only logged at DEBUG: the job's submission starts the
     * cluster again and reports it.
     *
     * @return this cluster
     */
    public EmbeddedFlinkCluster startInBackground() {
        CompletableFuture<Void> started = new CompletableFuture<>();
        backgroundStart = started;
        Thread starter = new Thread(
                () -> {
                    try {
                        miniCluster();
                    } catch (Exception e) {
                        LOG.debug(
                                "Starting the embedded Flink MiniCluster ahead of the job failed; the job's"
                                        + " submission tries again",
                                e);
                    } finally {
                        started.complete(null);
                    }
                    if (closed) {
                        // the context failed (or closed) while the cluster started: it was not waited for
                        closeStarted();
                    }
                },
                "streamsplit-flink-start");
        starter.setDaemon(true);
        starter.start();
        return this;
    }

    /** The REST address, once the cluster runs (Flink's web UI when flink-runtime-web is present). */
    public synchronized URI restAddress() throws Exception {
        return miniCluster().getRestAddress().get(10, TimeUnit.SECONDS);
    }

    /** Triggers a checkpoint of job {@code jobId} in-process; completes with the checkpoint. */
    public CompletableFuture<?> triggerCheckpoint(String jobId) {
        try {
            return miniCluster().triggerCheckpoint(org.apache.flink.api.common.JobID.fromHexString(jobId));
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * What the cluster knows of job {@code jobId} (status, vertices, checkpoint statistics, exception history),
     * read in-process: what Flink's REST API would serialize to JSON for the same question.
     */
    public CompletableFuture<ExecutionGraphInfo> executionGraphInfo(org.apache.flink.api.common.JobID jobId) {
        MiniCluster cluster = miniCluster;
        if (cluster == null || !cluster.isRunning()) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("The embedded Flink MiniCluster is not running"));
        }
        return cluster.getExecutionGraphInfo(jobId);
    }

    /** Whether a start begun by {@link #startInBackground()} is still under way. */
    boolean isStartingInBackground() {
        return !backgroundStart.isDone();
    }

    /** Whether the cluster has been started and is not closed. */
    public synchronized boolean isRunning() {
        MiniCluster started = miniCluster;
        return started != null && started.isRunning();
    }

    /** An executor loader that sends every job of an environment to this cluster. */
    public PipelineExecutorServiceLoader executorServiceLoader() {
        PipelineExecutor executor = this::submit;
        PipelineExecutorFactory factory = new PipelineExecutorFactory() {
            @Override
            public String getName() {
                return EXECUTOR_NAME;
            }

            @Override
            public boolean isCompatibleWith(Configuration config) {
                return true;
            }

            @Override
            public PipelineExecutor getExecutor(Configuration config) {
                return executor;
            }
        };
        return new PipelineExecutorServiceLoader() {
            @Override
            public PipelineExecutorFactory getExecutorFactory(Configuration config) {
                return factory;
            }

            @Override
            public Stream<String> getExecutorNames() {
                return Stream.of(EXECUTOR_NAME);
            }
        };
    }

    private CompletableFuture<JobClient> submit(
            org.apache.flink.api.dag.Pipeline pipeline, Configuration config, ClassLoader userCodeClassLoader)
            throws Exception {
        StreamGraph graph = PipelineExecutorUtils.getStreamGraph(pipeline, config);
        if (graph.getClasspath().isEmpty()
                && ClassLoader.getSystemClassLoader() != EmbeddedFlinkCluster.class.getClassLoader()) {
            graph.setClasspath(List.of(emptyClasspathEntry()));
        }
        graph.serializeUserDefinedInstances();
        MiniCluster cluster = miniCluster();
        return cluster.submitJob(graph).thenApply(result -> {
            try {
                // surfaces failures of job initialization (e.g. an unreadable restore path) here
                ClientUtils.waitUntilJobInitializationFinished(
                        () -> cluster.getJobStatus(result.getJobID()).get(),
                        () -> cluster.requestJobResult(result.getJobID()).get(),
                        userCodeClassLoader);
            } catch (Exception e) {
                throw new IllegalStateException("Flink job '" + graph.getJobName() + "' failed to initialize", e);
            }
            return new MiniClusterJobClient(
                    result.getJobID(),
                    cluster,
                    userCodeClassLoader,
                    MiniClusterJobClient.JobFinalizationBehavior.NOTHING);
        });
    }

    /**
     * In an executable Spring Boot jar the application's classes (and Flink's) are not on the
     * system class loader. A job without jars or classpath entries gets the system class loader in
     * Flink's JobManager, which then cannot read the job graph; any classpath entry makes Flink
     * create a user class loader whose parent is the loader Flink itself came from. An empty
     * directory adds no classes.
     */
    private synchronized URL emptyClasspathEntry() throws IOException {
        URL entry = emptyClasspathEntry;
        if (entry == null) {
            Path directory = Files.createTempDirectory("streamsplit-classpath");
            directory.toFile().deleteOnExit();
            entry = directory.toUri().toURL();
            emptyClasspathEntry = entry;
        }
        return entry;
    }

    /**
     * Closes the cluster. A start still under way in the background is not waited for (a context that
     * fails on a configuration mistake reports it at once); that start closes the cluster when it ends.
     */
    @Override
    public void destroy() throws Exception {
        closed = true;
        inProcessMetrics.close();
        if (miniCluster == null && !backgroundStart.isDone()) {
            // still starting (a context that failed or closed early): wait for it, about a second, so that no
            // cluster of this context starts, logs or holds ports after the context closed; if it takes
            // longer, the start sees 'closed' when it ends and closes the cluster then
            try {
                backgroundStart.get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                return;
            }
        }
        closeStarted();
    }

    private synchronized void closeStarted() {
        MiniCluster started = miniCluster;
        if (started != null) {
            try {
                started.closeAsync().get(30, TimeUnit.SECONDS);
                LOG.info("Stopped embedded Flink MiniCluster");
            } catch (Exception e) {
                LOG.warn("Could not stop the embedded Flink MiniCluster within 30 s: {}", e.toString());
            } finally {
                miniCluster = null;
            }
        }
    }
}
