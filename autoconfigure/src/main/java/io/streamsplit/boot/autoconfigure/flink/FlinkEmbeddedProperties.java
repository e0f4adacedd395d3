package io.streamsplit.boot.autoconfigure.flink;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/** {@code streamsplit.flink.embedded.*}: the MiniCluster, sized for an application rather than a cluster node. */
public class FlinkEmbeddedProperties {

    /** REST port of the MiniCluster (Flink's web UI when flink-runtime-web is on the classpath). Unset: a free port. */
    private @Nullable Integer restPort;

    /** Task slots of the one TaskManager. Unset: the job's parallelism. */
    private @Nullable Integer taskSlots;

    /** Flink managed memory (RocksDB state, sorting, batch operators). */
    private DataSize managedMemory = DataSize.ofMegabytes(64);

    /**
     * Memory for network buffers between parallel operators (key-by, rebalance). A job that needs more fails
     * naming this property and a size.
     */
    private DataSize networkMemory = DataSize.ofMegabytes(64);

    /** Replicas of the application (a Deployment's replicas): one runs the job, the others stand by. */
    @NestedConfigurationProperty
    private final Replicas replicas = new Replicas();

    public Replicas getReplicas() {
        return replicas;
    }

    /**
     * {@code streamsplit.flink.embedded.replicas.*}: instances of the application (its job name, on one Kafka
     * cluster) elect one active instance through Kafka's group membership protocol; it runs the job, the others
     * stand by and take over when it stops or dies.
     */
    public static class Replicas {

        /**
         * Whether instances of the application elect the one that runs the job. Off: every instance runs the job
         * (two replicas then write every record twice, or fence each other's transactions).
         */
        private boolean election = true;

        /** The one-partition topic the election's group subscribes to (created when missing); one per Kafka cluster. */
        private String topic = "streamsplit-replicas";

        /** The election's consumer group. Unset: streamsplit-replicas-<job name>. */
        private @Nullable String groupId;

        /**
         * How long the group waits for a silent active instance (killed, paused, cut off) before a standby takes
         * over; the takeover then takes this plus the job's start.
         */
        private Duration sessionTimeout = Duration.ofSeconds(10);

        public boolean isElection() {
            return election;
        }

        public void setElection(boolean election) {
            this.election = election;
        }

        public String getTopic() {
            return topic;
        }

        public void setTopic(String topic) {
            this.topic = topic;
        }

        public @Nullable String getGroupId() {
            return groupId;
        }

        public void setGroupId(@Nullable String groupId) {
            this.groupId = groupId;
        }

        public Duration getSessionTimeout() {
            return sessionTimeout;
        }

        public void setSessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = sessionTimeout;
        }
    }

    public @Nullable Integer getRestPort() {
        return restPort;
    }

    public void setRestPort(@Nullable Integer restPort) {
        this.restPort = restPort;
    }

    public @Nullable Integer getTaskSlots() {
        return taskSlots;
    }

    public void setTaskSlots(@Nullable Integer taskSlots) {
        this.taskSlots = taskSlots;
    }

    public DataSize getManagedMemory() {
        return managedMemory;
    }

    public void setManagedMemory(DataSize managedMemory) {
        this.managedMemory = managedMemory;
    }

    public DataSize getNetworkMemory() {
        return networkMemory;
    }

    public void setNetworkMemory(DataSize networkMemory) {
        this.networkMemory = networkMemory;
    }
}
