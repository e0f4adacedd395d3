package io.streamsplit.boot.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * {@code POST /actuator/streamsplit} over HTTP: a refused operation answers 400 with what was refused
 * and why in the body ({@code {"operation":"start","status":400,"error":"Bad Request","reason":"…"}}),
 * not Spring's generic error body, whatever {@code server.error.include-message} says; an operation
 * that failed answers 500 the same way.
 */
@EndpointWebExtension(endpoint = StreamSplitEndpoint.class)
public class StreamSplitEndpointWebExtension {

    private final StreamSplitEndpoint endpoint;

    public StreamSplitEndpointWebExtension(StreamSplitEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    @WriteOperation
    public WebEndpointResponse<Map<String, Object>> operate(
            @Nullable String operation,
            @Nullable Integer parallelism,
            @Nullable String source,
            @Nullable Double maxRecordsPerSecond) {
        try {
            return new WebEndpointResponse<>(endpoint.operate(operation, parallelism, source, maxRecordsPerSecond));
        } catch (InvalidEndpointRequestException refused) {
            return error(operation, WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request", refused.getMessage());
        } catch (IllegalStateException failed) {
            return error(
                    operation,
                    WebEndpointResponse.STATUS_INTERNAL_SERVER_ERROR,
                    "Internal Server Error",
                    failed.getMessage());
        }
    }

    private static WebEndpointResponse<Map<String, Object>> error(
            @Nullable String operation, int status, String error, @Nullable String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("operation", operation);
        body.put("status", status);
        body.put("error", error);
        body.put("reason", reason);
        return new WebEndpointResponse<>(body, status);
    }
}
