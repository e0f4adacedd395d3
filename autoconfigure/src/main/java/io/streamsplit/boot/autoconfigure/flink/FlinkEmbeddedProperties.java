package io.streamsplit.boot.autoconfigure.flink;

import org.jspecify.annotations.Nullable;
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
