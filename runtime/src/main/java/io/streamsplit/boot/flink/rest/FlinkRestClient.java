package io.streamsplit.boot.flink.rest;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.jspecify.annotations.Nullable;

/**
 * The few calls of Flink's REST API the actuator needs (job, checkpoints, exceptions, metrics).
 * Uses Flink's own shaded Jackson, so it adds no JSON library to the application.
 */
public final class FlinkRestClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int METRICS_PER_REQUEST = 40;

    private final Supplier<URI> baseUri;
    /**
     * Built at the first call: an HTTP client starts a selector thread and loads a few hundred classes (half
     * a second of a cold start), and an embedded application reads its job in-process, so it may never call.
     */
    private volatile @Nullable Connection connection;

    private final @Nullable Function<String, CompletableFuture<?>> inProcessCheckpoints;

    public FlinkRestClient(Supplier<URI> baseUri) {
        this(baseUri, null);
    }

    private FlinkRestClient(
            Supplier<URI> baseUri, @Nullable Function<String, CompletableFuture<?>> inProcessCheckpoints) {
        this.baseUri = baseUri;
        this.inProcessCheckpoints = inProcessCheckpoints;
    }

    /**
     * This client, with checkpoints triggered in-process by {@code trigger} (job id → the checkpoint's
     * completion) instead of over REST: the embedded cluster's. A REST trigger leaves an operation
     * result behind that Flink's REST endpoint waits for a client to read when it shuts down, which a
     * context closing while a checkpoint is under way cannot.
     */
    public FlinkRestClient withInProcessCheckpoints(Function<String, CompletableFuture<?>> trigger) {
        return new FlinkRestClient(baseUri, trigger);
    }

    /**
     * Triggers a checkpoint of {@code jobId} and waits up to {@code timeout} for it; over REST, reads
     * the operation's result, so that the cluster's REST endpoint does not keep it for a reader.
     */
    public void checkpoint(String jobId, Duration timeout) throws Exception {
        if (inProcessCheckpoints != null) {
            inProcessCheckpoints.apply(jobId).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return;
        }
        String trigger =
                post("/jobs/" + jobId + "/checkpoints", "{}").path("request-id").asText();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!"COMPLETED"
                .equals(get("/jobs/" + jobId + "/checkpoints/" + trigger)
                        .path("status")
                        .path("id")
                        .asText())) {
            if (System.nanoTime() > deadline) {
                return;
            }
            Thread.sleep(100);
        }
    }

    public JsonNode get(String path) throws IOException, InterruptedException {
        return found(path, find(path));
    }

    /** Like {@link #get}, but {@code null} when the cluster answers 404 (e.g. a job it does not know). */
    public @Nullable JsonNode find(String path) throws IOException, InterruptedException {
        return send(path, HttpRequest.newBuilder().GET(), 200);
    }

    /** POSTs {@code body} to {@code path}; fails unless the cluster accepts it (2xx). */
    public JsonNode post(String path, String body) throws IOException, InterruptedException {
        return found(
                path,
                send(
                        path,
                        HttpRequest.newBuilder()
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body)),
                        200,
                        202));
    }

    private JsonNode found(String path, @Nullable JsonNode answer) throws IOException {
        if (answer == null) {
            throw new IOException("Flink REST " + baseUri.get().resolve(path) + " answered 404: not found");
        }
        return answer;
    }

    /** {@code null} on 404; the answer's JSON on one of the {@code expected} statuses; else an error. */
    private @Nullable JsonNode send(String path, HttpRequest.Builder request, int... expected)
            throws IOException, InterruptedException {
        URI uri = baseUri.get().resolve(path);
        Connection open = connection();
        HttpResponse<String> response =
                open.http.send(request.uri(uri).timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 404) {
            return null;
        }
        if (Arrays.stream(expected).noneMatch(status -> status == response.statusCode())) {
            throw new IOException("Flink REST " + uri + " answered " + response.statusCode() + ": " + response.body());
        }
        return open.json.readTree(response.body());
    }

    private Connection connection() {
        Connection built = connection;
        if (built == null) {
            synchronized (this) {
                built = connection;
                if (built == null) {
                    built = new Connection();
                    connection = built;
                }
            }
        }
        return built;
    }

    /** The HTTP client and the JSON reader, built together at the first call. */
    private static final class Connection {
        final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        final ObjectMapper json = new ObjectMapper();
    }

    public JsonNode job(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId);
    }

    public JsonNode checkpoints(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId + "/checkpoints");
    }

    public JsonNode exceptions(String jobId) throws IOException, InterruptedException {
        return get("/jobs/" + jobId + "/exceptions");
    }

    /** Job-level metric values by name, e.g. {@code numRestarts}. */
    public JsonNode jobMetrics(String jobId, String names) throws IOException, InterruptedException {
        return get("/jobs/" + jobId + "/metrics?get=" + URLEncoder.encode(names, StandardCharsets.UTF_8));
    }

    /** All metric values of one vertex whose id passes {@code filter}: [{id, value}, ...]. */
    public List<JsonNode> vertexMetrics(String path, java.util.function.Predicate<String> filter)
            throws IOException, InterruptedException {
        List<String> ids = new ArrayList<>();
        for (JsonNode entry : get(path)) {
            String id = entry.path("id").asText();
            if (filter.test(id)) {
                ids.add(id);
            }
        }
        List<JsonNode> values = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += METRICS_PER_REQUEST) {
            String batch = String.join(",", ids.subList(from, Math.min(ids.size(), from + METRICS_PER_REQUEST)));
            get(path + "?get=" + URLEncoder.encode(batch, StandardCharsets.UTF_8))
                    .forEach(values::add);
        }
        return values;
    }

    /**
     * "'Source: words' 0 of 2 subtasks running (2 SCHEDULED)" for every operator whose subtasks are not all
     * RUNNING or FINISHED (a bounded source's subtask finishes); {@code null} when all are.
     */
    public static @Nullable String tasksNotRunning(JsonNode job) {
        List<String> lagging = new ArrayList<>();
        for (JsonNode vertex : job.path("vertices")) {
            Map<String, Integer> states = new LinkedHashMap<>();
            vertex.path("tasks")
                    .fields()
                    .forEachRemaining(
                            state -> states.put(state.getKey(), state.getValue().asInt()));
            String notRunning = notAllRunning(
                    vertex.path("name").asText(), vertex.path("parallelism").asInt(), states);
            if (notRunning != null) {
                lagging.add(notRunning);
            }
        }
        return lagging.isEmpty() ? null : String.join("; ", lagging);
    }

    /**
     * "'sink out: Writer' 1 of 2 subtasks running {DEPLOYING=1}" for operator {@code vertex} whose subtasks are
     * in {@code states} (state → count); {@code null} when all of them run or finished.
     */
    public static @Nullable String notAllRunning(String vertex, int parallelism, Map<String, Integer> states) {
        int running = states.getOrDefault("RUNNING", 0);
        if (running + states.getOrDefault("FINISHED", 0) >= parallelism) {
            return null;
        }
        Map<String, Integer> others = new LinkedHashMap<>();
        states.forEach((state, count) -> {
            if (count > 0 && !state.equals("RUNNING") && !state.equals("FINISHED")) {
                others.put(state, count);
            }
        });
        return "'" + vertex + "' " + running + " of " + parallelism + " subtasks running"
                + (others.isEmpty() ? "" : " " + others);
    }
}
