package io.streamsplit.boot.test.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** GETs and JSON POSTs against the Actuator of an application on a local port, as curl would. */
final class ActuatorHttp {

    private final HttpClient http = HttpClient.newHttpClient();
    private final int port;

    ActuatorHttp(int port) {
        this.port = port;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs {@code json} to {@code /actuator/streamsplit}. */
    HttpResponse<String> operate(String json) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/streamsplit"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
