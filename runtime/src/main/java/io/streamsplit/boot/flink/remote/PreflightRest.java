package io.streamsplit.boot.flink.remote;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** One GET on a Flink cluster's REST API before the application submits anything: its version, its slots. */
final class PreflightRest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private PreflightRest() {}

    /** {@code GET <restBase><path>}, within ten seconds to connect and ten to answer. */
    static HttpResponse<String> get(URI restBase, String path) throws IOException, InterruptedException {
        return HttpClient.newBuilder()
                .connectTimeout(TIMEOUT)
                .build()
                .send(
                        HttpRequest.newBuilder(restBase.resolve(path))
                                .timeout(TIMEOUT)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }
}
