package io.streamsplit.connector.kafka.source;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The MiniCluster the integration tests share per class: one TaskManager with {@code slots} slots. */
final class MiniClusters {

    private MiniClusters() {
    }

    static MiniClusterExtension withSlots(int slots) {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(slots).build());
    }
}
