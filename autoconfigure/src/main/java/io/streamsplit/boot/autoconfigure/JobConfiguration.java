package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.flink.FlinkConfigurationMapper;
import io.streamsplit.boot.autoconfigure.flink.FlinkEmbeddedProperties;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkFactory;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceFactory;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties.StartupCheckMode;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaAccessCheck;
import io.streamsplit.boot.autoconfigure.kafka.connection.KafkaClientProperties;
import io.streamsplit.boot.autoconfigure.step.PropertiesProcessingErrors;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.config.PropertyChecks;
import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.flink.embedded.EmbeddedFlinkCluster;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.job.BusyCheckpoints;
import io.streamsplit.boot.job.DefaultPipelineContext;
import io.streamsplit.boot.job.EmbeddedCheckpoints;
import io.streamsplit.boot.job.JobDefinition;
import io.streamsplit.boot.job.StaleCheckpointCheck;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.boot.job.SubmittedJobClient;
import io.streamsplit.boot.job.cluster.ClusterJobController;
import io.streamsplit.boot.job.cluster.ClusterStart;
import io.streamsplit.boot.job.failure.JobFailureHistory;
import io.streamsplit.boot.job.failure.JobFailures;
import io.streamsplit.boot.job.replica.ElectionTopic;
import io.streamsplit.boot.job.replica.ReplicaElection;
import io.streamsplit.boot.job.state.PeriodicSavepoints;
import io.streamsplit.boot.kafka.KafkaClients;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The job: built from the {@code StreamSplitPipeline} beans and submitted after startup, its failures
 * explained, and its {@link JobClient}.
 */
@org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
class JobConfiguration {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JobConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    StreamSplitJob streamSplitJob(
            StreamSplitProperties properties,
            JobDefinition job,
            StreamExecutionEnvironment streamExecutionEnvironment,
            ConfigurableListableBeanFactory beanFactory,
            KafkaSourceFactory sources,
            KafkaSinkFactory sinks,
            KafkaClientProperties clientProperties,
            StaleCheckpointCheck policy,
            Environment environment,
            FlinkRestClient rest,
            JobFailures failures,
            ObjectProvider<EmbeddedFlinkCluster> embedded,
            ObjectProvider<ClusterJobController> cluster,
            ObjectProvider<ClusterStart> clusterStart,
            PropertiesProcessingErrors processingErrors) {
        FlinkProperties flink = properties.getFlink();
        EmbeddedFlinkCluster embeddedCluster = embedded.getIfAvailable();
        StreamSplitJob streamSplitJob = new StreamSplitJob(
                FlinkConfigurationMapper.jobSettings(flink, streamExecutionEnvironment.getParallelism(), job),
                job,
                streamExecutionEnvironment,
                beanFactory,
                () -> new DefaultPipelineContext(
                        streamExecutionEnvironment, beanFactory, sources, sinks, processingErrors),
                target(flink),
                rest,
                failures,
                embeddedCluster != null
                        ? JobFailureHistory.inProcess(embeddedCluster::executionGraphInfo)
                        : JobFailureHistory.rest(rest),
                cluster.getIfAvailable(),
                clusterStart.getIfAvailable());
        streamSplitJob.dryRun(flink.isDryRun());
        Function<ReplicaElection.Listener, ReplicaElection> election = flink.isDryRun()
                ? null
                : replicaElection(
                        properties,
                        job.name(),
                        environment.getProperty("spring.application.name", job.name()),
                        sources,
                        clientProperties);
        if (election != null) {
            streamSplitJob.electedBy(election, takeover -> {
                if (takeover && flink.getCheckpointing().getStorage() == null) {
                    EmbeddedCheckpoints.warnTakeoverWithOwnStorage(job);
                }
                EmbeddedCheckpoints.resumeNewest(
                        job, policy, flink.getRestorePath() != null, (org.apache.flink.configuration.Configuration)
                                streamExecutionEnvironment.getConfiguration());
            });
        }
        return streamSplitJob;
    }

    /**
     * {@code streamsplit.flink.dry-run}: once the application is ready (every check passed, the job built, the
     * plan logged), it closes itself, so the process exits with status 0; a failed check already failed the start.
     */
    @Bean
    org.springframework.context.ApplicationListener<org.springframework.boot.context.event.ApplicationReadyEvent>
            streamSplitDryRunExit(StreamSplitJob job) {
        return ready -> {
            if (job.dryRunReport() == null) {
                return;
            }
            Thread closer = new Thread(
                    () -> {
                        LOG.info("Dry run of Flink job '{}' done: closing the application", job.jobName());
                        ready.getApplicationContext().close();
                    },
                    "streamsplit-dry-run-exit");
            closer.start();
        };
    }

    /**
     * Embedded with checkpoints on: a checkpoint every {@code busy-interval} while the sources read
     * ({@link BusyCheckpoints}); none when {@code busy-interval} is 0, on a cluster and without checkpoints.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @Nullable
    BusyCheckpoints streamSplitBusyCheckpoints(
            StreamSplitProperties properties, StreamSplitJob job, ObjectProvider<EmbeddedFlinkCluster> embedded) {
        FlinkProperties flink = properties.getFlink();
        Duration interval = flink.getCheckpointing().getBusyInterval();
        PropertyChecks.requireNotNegative(
                "streamsplit.flink.checkpointing.busy-interval",
                interval,
                "Set a duration such as 250ms, or 0 to leave checkpoints to streamsplit.flink.checkpointing.interval.");
        EmbeddedFlinkCluster cluster = embedded.getIfAvailable();
        if (cluster == null
                || !flink.isEnabled()
                || !flink.getCheckpointing().isEnabled()
                || interval.isZero()
                || interval.compareTo(flink.getCheckpointing().getInterval()) >= 0) {
            return null;
        }
        return BusyCheckpoints.start(
                job.jobName(),
                interval,
                () -> runningJobId(job),
                cluster.inProcessMetrics()::progress,
                cluster::triggerCheckpoint);
    }

    /**
     * With {@code checkpointing.history.savepoint-interval}: a savepoint of the running job every interval, embedded
     * or on a cluster ({@link PeriodicSavepoints}), each followed by the history's prune; none when unset or 0.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @Nullable
    PeriodicSavepoints streamSplitPeriodicSavepoints(
            StreamSplitProperties properties, StreamSplitJob job, ObjectProvider<ClusterJobController> controller) {
        FlinkProperties flink = properties.getFlink();
        Duration interval = flink.getCheckpointing().getHistory().getSavepointInterval();
        PropertyChecks.requireNotNegative(
                "streamsplit.flink.checkpointing.history.savepoint-interval",
                interval,
                "Set a duration such as 6h, or leave it unset for no periodic savepoints.");
        if (interval == null || interval.isZero() || !flink.isEnabled()) {
            return null;
        }
        ClusterJobController cluster = controller.getIfAvailable();
        return PeriodicSavepoints.start(
                job.jobName(),
                interval,
                () -> runningClient(job),
                job::savepointDirectory,
                run -> cluster == null ? java.util.Optional.empty() : cluster.lastSavepoint(run),
                job::keepHistoryShort);
    }

    /** The id of the job's run while it runs here, not stopping; {@code null} otherwise. */
    private static @Nullable String runningJobId(StreamSplitJob job) {
        JobClient client = runningClient(job);
        return client == null ? null : client.getJobID().toString();
    }

    /** The job's run while it runs here, not stopping; {@code null} otherwise. */
    private static @Nullable JobClient runningClient(StreamSplitJob job) {
        CompletableFuture<JobClient> submission = job.submission();
        if (job.isStopping() || !submission.isDone() || submission.isCompletedExceptionally()) {
            return null;
        }
        return submission.join();
    }

    /**
     * The election among the application's replicas, embedded on a real Kafka: the election topic made sure of now
     * (credentials that may not use it fail startup); {@code null} on a cluster (the cluster runs one job
     * however many instances), on the dev-mode broker (one process) and with the election switched off.
     */
    static @Nullable Function<ReplicaElection.Listener, ReplicaElection> replicaElection(
            StreamSplitProperties properties,
            String jobName,
            String application,
            KafkaSourceFactory sources,
            KafkaClientProperties clients) {
        FlinkProperties flink = properties.getFlink();
        FlinkEmbeddedProperties.Replicas replicas = flink.getEmbedded().getReplicas();
        if (flink.getMode() != FlinkMode.EMBEDDED
                || !flink.isEnabled()
                || !replicas.isElection()
                || sources.sharedIsDevBroker()) {
            return null;
        }
        String servers;
        try {
            servers = sources.sharedBootstrapServers();
        } catch (InvalidStreamSplitConfigurationException everySourceNamesItsOwn) {
            return null; // the startup check says what is missing
        }
        String group = replicas.getGroupId() != null ? replicas.getGroupId() : "streamsplit-replicas-" + jobName;
        Properties consumer = clients.forClient(KafkaClients.Kind.CONSUMER, servers, Map.of());
        StartupCheckMode check = properties.getKafka().getStartupCheck().getMode();
        Duration timeout = properties.getKafka().getStartupCheck().getTimeout();
        Properties admin = KafkaClients.checkingAdmin(
                clients.forClient(KafkaClients.Kind.ADMIN, servers, Map.of()), "streamsplit-replicas", timeout);
        // when the job starts, after the startup check of the sources and sinks: its findings come first
        return listener -> {
            ensureElectionTopic(check, admin, replicas.getTopic(), timeout);
            return new ReplicaElection(
                    jobName, application, consumer, replicas.getTopic(), group, replicas.getSessionTimeout(), listener);
        };
    }

    /** The election topic exists, or the start fails (startup check {@code fail}) or warns ({@code warn}). */
    private static void ensureElectionTopic(StartupCheckMode check, Properties admin, String topic, Duration timeout) {
        if (check == StartupCheckMode.OFF) {
            return;
        }
        try {
            ElectionTopic.ensure(admin, topic, timeout);
        } catch (InvalidStreamSplitConfigurationException e) {
            if (check == StartupCheckMode.FAIL) {
                throw e;
            }
            LOG.warn("{}: {} {}", e.getProperty(), e.getProblem(), e.getAction());
        }
    }

    /**
     * The job's shutdown phase waits as long as {@code streamsplit.flink.shutdown.timeout} lets the stop take
     * (a savepoint), not only Spring's per-phase timeout.
     */
    @Bean
    static BeanPostProcessor streamSplitShutdownPhaseTimeout(Environment environment) {
        return new ShutdownPhaseTimeout(environment);
    }

    /** Where the job runs, for messages: "the Flink cluster at host:port" or "the embedded Flink MiniCluster". */
    static String target(FlinkProperties flink) {
        return switch (flink.getMode()) {
            case REMOTE ->
                "the Flink cluster at " + flink.getRemote().getHost() + ":"
                        + flink.getRemote().getPort();
            case APPLICATION -> "the Flink cluster that started the application";
            case EMBEDDED -> "the embedded Flink MiniCluster";
        };
    }

    @Bean
    @ConditionalOnMissingBean
    JobFailures streamSplitJobFailures(
            StreamSplitProperties properties,
            KafkaSourceFactory sources,
            KafkaSinkFactory sinks,
            KafkaClientProperties clientProperties) {
        Properties consumer = new Properties();
        consumer.putAll(clientProperties.common(KafkaClients.Kind.CONSUMER));
        return new JobFailures(
                sources,
                sinks,
                properties.getKafka().getSchemaRegistry().getUrl(),
                properties.getFlink().getMode() == FlinkMode.EMBEDDED,
                KafkaAccessCheck.principal(consumer));
    }

    @Bean
    @ConditionalOnMissingBean
    JobClient streamSplitJobClient(StreamSplitJob job) {
        return new SubmittedJobClient(job::submission);
    }
}
