package io.streamsplit.boot.job.cluster;

import com.sun.net.httpserver.HttpServer;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;

/**
 * A Flink cluster's REST API as a test scripts it: each request ({@code GET /jobs/overview}) gets the answer the
 * test's routes give, and is recorded. Paths come without the API version Flink's own client puts in front
 * ({@code /v1/jobs/...}), so the application's REST client and Flink's are answered alike; anything the routes
 * do not know is a 404, as Flink answers it.
 */
final class FakeFlinkRest implements AutoCloseable {

    /** An answer: HTTP status and JSON body. */
    record Answer(int status, String body) {

        static Answer ok(String body) {
            return new Answer(200, body);
        }

        static Answer error(int status, String message) {
            return new Answer(status, "{\"errors\":[\"" + message + "\"]}");
        }

        static Answer notFound() {
            return error(404, "not found");
        }
    }

    /** The scripted API: the answer to {@code method} {@code path}, {@code null} for a 404. */
    @FunctionalInterface
    interface Routes {
        Answer answer(String method, String path);
    }

    private final HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private FakeFlinkRest(Routes routes) {
        try {
            server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath().replaceFirst("^/v1/", "/");
            String method = exchange.getRequestMethod();
            try (InputStream body = exchange.getRequestBody()) {
                body.readAllBytes(); // an upload (a job graph) is read before the answer
            }
            requests.add(method + " " + path);
            Answer answer = routes.answer(method, path);
            if (answer == null) {
                answer = Answer.notFound();
            }
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.status(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    static FakeFlinkRest start(Routes routes) {
        return new FakeFlinkRest(routes);
    }

    /** Every request so far, as {@code GET /jobs/overview}. */
    List<String> requests() {
        return requests;
    }

    /** The application's client of this API. */
    FlinkRestClient client() {
        URI uri = URI.create("http://localhost:" + server.getAddress().getPort());
        return new FlinkRestClient(() -> uri);
    }

    /** A remote environment's configuration pointing at this API, for Flink's own client. */
    Configuration configuration() {
        Configuration configuration = new Configuration();
        configuration.set(RestOptions.ADDRESS, "localhost");
        configuration.set(RestOptions.PORT, server.getAddress().getPort());
        return configuration;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
