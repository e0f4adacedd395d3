package io.streamsplit.boot.autoconfigure.flink;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/** The embedded MiniCluster's network memory: sized from its slots unless the application sets it. */
class EmbeddedNetworkMemoryTest {

    @Test
    void unsetItGrowsWithTheSquareOfTheSlotsFromSixteenMegabytes() {
        assertThat(network(new FlinkProperties(), 1)).isEqualTo(MemorySize.ofMebiBytes(17));
        assertThat(network(new FlinkProperties(), 2)).isEqualTo(MemorySize.ofMebiBytes(20));
        assertThat(network(new FlinkProperties(), 8)).isEqualTo(MemorySize.ofMebiBytes(80));
    }

    @Test
    void theSlotsSetForTheClusterSizeItNotTheJobsParallelism() {
        FlinkProperties flink = new FlinkProperties();
        flink.getEmbedded().setTaskSlots(4);

        assertThat(network(flink, 2)).isEqualTo(MemorySize.ofMebiBytes(32));
    }

    @Test
    void setItIsTakenAsItIs() {
        FlinkProperties flink = new FlinkProperties();
        flink.getEmbedded().setNetworkMemory(DataSize.ofMegabytes(64));

        assertThat(network(flink, 8)).isEqualTo(MemorySize.ofMebiBytes(64));
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
