package io.streamsplit.boot.job.replica;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's part in its application's election: a member of the Kafka consumer group {@code group},
 * subscribed to the one-partition election topic, whose {@link ReplicaAssignor} gives the partition — the
 * job — to one member. The member that holds it is active and runs the job; the others stand by.
 *
 * <p>A member whose session ends (its heartbeats stopped: {@code kill -9}, a long pause, a network partition)
 * is removed by the group coordinator after {@code sessionTimeout}, and the job moves to a standby; the member
 * itself stands down as soon as it sees it has not heartbeated for that long, so two instances do not both run
 * the job for longer than Kafka's own detection takes. A clean stop leaves the group at once, and the standby
 * takes over without waiting for the timeout. Role changes are handed to the listener on one thread, in order.
 *
 * <pre>{@code
 * ReplicaElection election = new ReplicaElection("orders", "order-service", consumerSettings,
 *         "streamsplit-replicas", "streamsplit-replicas-orders", Duration.ofSeconds(10), listener);
 * election.start();
 * }</pre>
 */
public final class ReplicaElection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicaElection.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final java.util.concurrent.atomic.AtomicInteger INSTANCES =
            new java.util.concurrent.atomic.AtomicInteger();

    /** What the job's lifecycle does when this instance's role changes. */
    public interface Listener {
        /**
         * This instance became the active one: run the job.
         *
         * @param takeover whether another instance was active before (a takeover, not the first election)
         */
        void active(boolean takeover);

        /** This instance is no longer active ({@code why}): stop running the job at once. */
        void standDown(String why);
    }

    /** The roles an instance has in the election. */
    public enum Role {
        /** Not (yet) a member of the group. */
        JOINING,
        /** Runs the job. */
        ACTIVE,
        /** Stands by, ready to take over. */
        STANDBY
    }

    /**
     * What the election looks like from this instance, for health and the endpoint.
     *
     * @param role this instance's role
     * @param self this instance's name (host and process)
     * @param active the active instance's name as the last assignment said it, {@code null} before one
     * @param since when this instance took its role
     * @param problem why the election cannot be followed now (Kafka unreachable, not allowed), {@code null} when it can
     * @param otherApplication the application of the active instance when it is another than this one's (two
     *     applications with one job name on one Kafka), {@code null} when it is this one
     */
    public record Status(
            Role role,
            String self,
            @Nullable String active,
            Instant since,
            @Nullable String problem,
            @Nullable String otherApplication) {}

    private final String jobName;
    private final String topic;
    private final String group;
    private final Duration sessionTimeout;
    private final Listener listener;
    private final Properties settings;
    private final String self;
    private final ExecutorService roleChanges;
    private final Thread member;

    private volatile Status status;
    private volatile boolean closing;
    private volatile @Nullable KafkaConsumer<byte[], byte[]> consumer;
    private volatile @Nullable String activeHeard;
    private volatile @Nullable String otherApplication;
    private final String application;
    private @Nullable Metric lastHeartbeat;

    /**
     * @param consumerSettings the application's Kafka client settings for a consumer (servers, security)
     * @param sessionTimeout how long the group waits for a silent member before the job moves on
     */
    public ReplicaElection(
            String jobName,
            String application,
            Properties consumerSettings,
            String topic,
            String group,
            Duration sessionTimeout,
            Listener listener) {
        this.jobName = jobName;
        this.application = application;
        this.topic = topic;
        this.group = group;
        this.sessionTimeout = sessionTimeout;
        this.listener = listener;
        this.self = instanceName();
        this.status = status(Role.JOINING, null, Instant.now(), null);
        this.settings = memberSettings(consumerSettings, self, application, group, sessionTimeout);
        this.settings.put(
                ReplicaAssignor.ACTIVE_HEARD, (java.util.function.Consumer<ReplicaAssignor.Member>) this::heard);
        this.roleChanges = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "streamsplit-replica-role-" + jobName);
            thread.setDaemon(true);
            return thread;
        });
        this.member = new Thread(this::run, "streamsplit-replica-" + jobName);
        this.member.setDaemon(true);
    }

    static Properties memberSettings(
            Properties consumer, String self, String application, String group, Duration sessionTimeout) {
        Properties settings = new Properties();
        settings.putAll(consumer);
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "streamsplit-replica-" + self);
        settings.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        settings.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, ReplicaAssignor.class.getName());
        settings.put(
                ReplicaAssignor.MEMBER,
                new ReplicaAssignor.Member(System.currentTimeMillis(), self, application).setting());
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        settings.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) sessionTimeout.toMillis());
        settings.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(100, sessionTimeout.toMillis() / 5));
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        settings.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        return settings;
    }

    /** The instance's name: host (a pod's name) and process id, and a number after the first in one JVM. */
    static String instanceName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception unknown) {
            host = "localhost";
        }
        int nth = INSTANCES.incrementAndGet();
        return host + "/" + ManagementFactory.getRuntimeMXBean().getPid() + (nth > 1 ? "#" + nth : "");
    }

    /** Joins the election; the listener hears of this instance's role from now on. */
    public void start() {
        LOG.info(
                "Flink job '{}' runs on one replica of the application at a time: this instance ({}) joins the"
                        + " election (group '{}', topic '{}') and runs the job when it is elected",
                jobName,
                self,
                group,
                topic);
        member.start();
    }

    /** What the election looks like from here now. */
    public Status status() {
        return status;
    }

    /** A status of this instance, with what the last assignment said of another application. */
    private Status status(Role role, @Nullable String active, Instant since, @Nullable String problem) {
        return new Status(role, self, active, since, problem, otherApplication);
    }

    /** The Kafka the election runs on, for messages. */
    public String bootstrapServers() {
        return String.valueOf(settings.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
    }

    private void run() {
        KafkaConsumer<byte[], byte[]> kafka;
        try {
            kafka = new KafkaConsumer<>(settings);
        } catch (RuntimeException e) {
            problem("could not create its Kafka consumer: " + e.getMessage());
            return;
        }
        consumer = kafka;
        try {
            kafka.subscribe(List.of(topic), new Rebalances());
            while (!closing) {
                try {
                    kafka.poll(POLL);
                    heartbeatCheck(kafka);
                } catch (WakeupException woken) {
                    // closing
                } catch (AuthorizationException | AuthenticationException denied) {
                    problem(denied.getClass().getSimpleName() + ": " + denied.getMessage() + " (the credentials need"
                            + " READ on consumer group '" + group + "' and READ and DESCRIBE on topic '" + topic
                            + "')");
                    pause();
                } catch (RuntimeException e) {
                    problem(e.getClass().getSimpleName() + ": " + e.getMessage());
                    pause();
                }
            }
        } finally {
            try {
                // leaves the group: the job moves to a standby at once, without waiting for the session timeout
                kafka.close(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.debug("Closing the election member of job '{}': {}", jobName, e.toString());
            }
        }
    }

    /**
     * The active member that has not heartbeated for a session timeout has been removed from the group by now
     * (the coordinator moved the job to another member): it stands down without waiting to hear it.
     */
    private void heartbeatCheck(KafkaConsumer<byte[], byte[]> kafka) {
        Status now = status;
        double secondsAgo = lastHeartbeatSecondsAgo(kafka);
        boolean silent = secondsAgo * 1000 > sessionTimeout.toMillis();
        if (now.role() == Role.ACTIVE && silent) {
            become(
                    Role.STANDBY,
                    now.active(),
                    "no heartbeat reached Kafka's group coordinator for "
                            + (long) secondsAgo + " s (session timeout " + sessionTimeout.toSeconds() + " s): another"
                            + " replica may have taken over");
        } else if (!silent && now.problem() != null && now.role() != Role.JOINING) {
            status = status(now.role(), now.active(), now.since(), null);
        } else if (!silent && now.role() == Role.STANDBY && !kafka.assignment().isEmpty()) {
            // it stood down while its heartbeats did not get through (a broker holding the group coordinator died
            // or restarted: the coordinator moves in about broker.session.timeout.ms), and they get through again
            // with the group still holding the job for it — the coordinator never replaced it. Without this, no
            // rebalance would ever tell it so, and nobody would run the job.
            LOG.info(
                    "Heartbeats of this instance ({}) reach Kafka's group coordinator again and the group still has"
                            + " it as the active replica of Flink job '{}': it runs the job again",
                    self,
                    jobName);
            become(Role.ACTIVE, self, "");
        }
    }

    /** The consumer's {@code last-heartbeat-seconds-ago}, looked up among its metrics once; 0 before a heartbeat. */
    private double lastHeartbeatSecondsAgo(KafkaConsumer<byte[], byte[]> kafka) {
        Metric metric = lastHeartbeat;
        if (metric == null) {
            for (var entry : kafka.metrics().entrySet()) {
                MetricName name = entry.getKey();
                if (name.name().equals("last-heartbeat-seconds-ago")
                        && name.group().contains("coordinator")) {
                    metric = entry.getValue();
                    lastHeartbeat = metric;
                }
            }
        }
        return metric != null && metric.metricValue() instanceof Number number && number.doubleValue() >= 0
                ? number.doubleValue()
                : 0;
    }

    private void problem(String problem) {
        Status now = status;
        if (!problem.equals(now.problem())) {
            LOG.warn(
                    "The replica election of Flink job '{}' cannot be followed from this instance ({}): {}",
                    jobName,
                    self,
                    problem);
        }
        status = status(now.role(), now.active(), now.since(), problem);
        if (now.role() == Role.ACTIVE) {
            become(Role.STANDBY, now.active(), problem);
        }
    }

    private void pause() {
        try {
            Thread.sleep(POLL.toMillis() * 2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void become(Role role, @Nullable String active, String why) {
        Status before = status;
        if (before.role() == role) {
            status = status(role, active, before.since(), before.problem());
            return;
        }
        status = status(role, active, Instant.now(), before.problem());
        if (closing) {
            // leaving the group after the application stopped its job: nothing to stand down from
            return;
        }
        if (role == Role.ACTIVE) {
            LOG.info("This instance ({}) is the active replica of Flink job '{}': it runs the job", self, jobName);
            boolean takeover = before.active() != null && !before.active().equals(self);
            roleChanges.execute(() -> listener.active(takeover));
        } else {
            if (before.role() == Role.ACTIVE) {
                LOG.warn(
                        "This instance ({}) stands down as the active replica of Flink job '{}': {}",
                        self,
                        jobName,
                        why);
                roleChanges.execute(() -> listener.standDown(why));
            } else {
                LOG.info(
                        "This instance ({}) stands by for Flink job '{}', which runs on {}; it takes over when that"
                                + " instance stops",
                        self,
                        jobName,
                        active == null ? "another instance" : active);
            }
        }
    }

    private final class Rebalances implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                become(Role.STANDBY, null, "the group moved the job to another replica");
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                become(Role.STANDBY, null, "this instance lost its place in the group (its session expired)");
            }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            KafkaConsumer<byte[], byte[]> kafka = consumer;
            boolean holds = kafka != null && !kafka.assignment().isEmpty();
            become(holds ? Role.ACTIVE : Role.STANDBY, holds ? self : activeHeard, "");
        }
    }

    /**
     * What the group's last assignment said of the active member (the assignor hears it before the listener). An
     * active member of another application means two applications share one job name on this Kafka: said once, as
     * an ERROR, and in health; this instance never runs the job of the other.
     */
    private void heard(ReplicaAssignor.Member active) {
        activeHeard = active.name();
        String other = active.application().equals(application) ? null : active.application();
        if (other != null && !other.equals(otherApplication)) {
            LOG.error(
                    "Flink job '{}' of application '{}' shares its replicas' election with application '{}' (instance {}"
                            + " is active) on this Kafka: the two use one job name. Give each its own"
                            + " streamsplit.flink.job-name; until then this instance runs no job",
                    jobName,
                    application,
                    other,
                    active.name());
        }
        otherApplication = other;
    }

    /**
     * Leaves the election, after the job stopped: the group moves the job to a standby at once. Waits at most
     * {@code timeout} for this instance's member to leave.
     */
    public void close(Duration timeout) {
        closing = true;
        KafkaConsumer<byte[], byte[]> kafka = consumer;
        if (kafka != null) {
            kafka.wakeup();
        }
        try {
            member.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        roleChanges.shutdown();
        try {
            roleChanges.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }
}
