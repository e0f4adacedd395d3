package io.streamsplit.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    /** The first attempt's REST port (probe 0) or RPC port (probe 1) is held by another socket. */
    @ParameterizedTest(name = "taken: probe {0}")
    @ValueSource(ints = {0, 1})
    void startsAgainOnFreshPortsWhenAnotherProcessTakesAPortFirst(int takenProbe) throws Exception {
        // another process binds the port between the probe and the JobManager's bind, as in a busy build
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("localhost"))) {
            AtomicInteger probes = new AtomicInteger();
            StandaloneFlinkCluster cluster = StandaloneFlinkCluster.builder()
                    .portProbe(() -> probes.getAndIncrement() == takenProbe
                            ? taken.getLocalPort()
                            : StandaloneFlinkClusterBuilder.freePort())
                    .start();
            try {
                assertThat(cluster.restPort()).isNotEqualTo(taken.getLocalPort());
                assertThat(cluster.get("/overview")).contains("\"taskmanagers\":1");
                // the first attempt's REST and RPC ports, then the second's
                assertThat(probes).hasValue(4);
            } finally {
                cluster.close();
            }
        }
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
