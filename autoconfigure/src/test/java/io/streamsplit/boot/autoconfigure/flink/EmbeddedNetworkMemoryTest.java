package io.streamsplit.boot.autoconfigure.flink;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/**
 * The embedded MiniCluster's network memory: 64 MB unless the application sets it. A pool sized from the slots
 * (20 MB at parallelism 2) was measured and not kept: the keyed exactly-once job drained 1.17× faster with 64 MB
 * at no peak-RSS cost beyond noise (docs/benchmarks.md "Memory").
 */
class EmbeddedNetworkMemoryTest {

    @Test
    void unsetItIsSixtyFourMegabytesWhateverTheParallelism() {
        assertThat(network(new FlinkProperties(), 2)).isEqualTo(MemorySize.ofMebiBytes(64));
        assertThat(network(new FlinkProperties(), 8)).isEqualTo(MemorySize.ofMebiBytes(64));
    }

    @Test
    void setItIsTakenAsItIs() {
        FlinkProperties flink = new FlinkProperties();
        flink.getEmbedded().setNetworkMemory(DataSize.ofMegabytes(16));

        assertThat(network(flink, 8)).isEqualTo(MemorySize.ofMebiBytes(16));
    }

    private static MemorySize network(FlinkProperties flink, int parallelism) {
        Configuration job = new Configuration();
        job.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        Configuration cluster = FlinkConfigurationMapper.embeddedClusterConfiguration(flink, job);
        assertThat(cluster.get(TaskManagerOptions.NETWORK_MEMORY_MIN))
                .isEqualTo(cluster.get(TaskManagerOptions.NETWORK_MEMORY_MAX));
        return cluster.get(TaskManagerOptions.NETWORK_MEMORY_MAX);
    }
}
