package io.streamsplit.boot.flink.remote;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;

/** Remote mode refuses a cluster of another Flink minor version with a message that says what to change. */
class FlinkVersionCheckTest {

    private static final URI CLUSTER = URI.create("http://flink-jm:8081");

    @Test
    void sameMinorVersionPasses() {
        assertThatCode(() -> FlinkVersionCheck.check("2.3.1", "2.3.0", CLUSTER)).doesNotThrowAnyException();
    }

    @Test
    void otherMinorVersionNamesBothVersionsAndTheFix() {
        assertThatThrownBy(() -> FlinkVersionCheck.check("1.20.1", "2.3.0", CLUSTER))
                .hasMessageStartingWith("streamsplit.flink.remote.host = flink-jm:8081")
                .hasMessageContaining("http://flink-jm:8081 runs Flink 1.20.1")
                .hasMessageContaining("built with Flink 2.3.0")
                .hasMessageContaining("Run a 2.3.x cluster, or build the application with flink.version 1.20.1");
    }

    @Test
    void readsTheVersionFromTheClustersRestConfig() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        server.createContext("/config", exchange -> {
            byte[] body = "{\"refresh-interval\":3000,\"flink-version\":\"1.19.0\",\"flink-revision\":\"x\"}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            URI base = URI.create("http://localhost:" + server.getAddress().getPort());
            assertThatThrownBy(() -> FlinkVersionCheck.requireCompatible(base))
                    .hasMessageContaining("runs Flink 1.19.0")
                    .hasMessageContaining("built with Flink " + EnvironmentInformation.getVersion());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anUnreachableClusterNamesTheAddressAndWhatToCheck() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        URI base = URI.create("http://localhost:" + closedPort);
        assertThatThrownBy(() -> FlinkVersionCheck.requireCompatible(base))
                .hasMessageStartingWith("streamsplit.flink.remote.host = localhost:" + closedPort)
                .hasMessageContaining("cannot reach the Flink cluster's REST API at " + base)
                .hasMessageContaining("streamsplit.flink.remote.host/port");
    }
}
