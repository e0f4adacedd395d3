package io.streamsplit.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class StandaloneFlinkClusterIT {

    @Test
    void startsAJobManagerAndATaskManagerAndKillsBothOnClose() {
        StandaloneFlinkCluster cluster =
                StandaloneFlinkCluster.builder().taskSlots(3).start();
        try {
            String overview = cluster.get("/overview");
            assertThat(overview).contains("\"taskmanagers\":1").contains("\"slots-total\":3");
            // the processes really are Flink's entry points, with the configured memory
            assertThat(cluster.get("/taskmanagers")).contains("\"slotsNumber\":3");
        } finally {
            cluster.close();
        }
        assertThatThrownBy(() -> cluster.get("/overview")).isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void classpathHoldsOnlyFlinkAndItsDependencies() {
        String classpath = StandaloneFlinkCluster.clusterClasspath();
        assertThat(classpath)
                .contains("flink-runtime-")
                .contains("flink-streaming-java-")
                .doesNotContain("spring")
                .doesNotContain("streamsplit")
                .doesNotContain("kafka-clients");
    }
}
