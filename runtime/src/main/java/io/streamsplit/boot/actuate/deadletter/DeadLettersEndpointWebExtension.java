package io.streamsplit.boot.actuate.deadletter;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * {@code POST /actuator/deadletters} over HTTP: a refused replay answers 400 with the reason in the
 * body ({@code {"source":"orders","status":400,"reason":"3 of 3 dead letters … still fail …"}}),
 * whatever {@code server.error.include-message} says; a failed one 500 the same way.
 */
@EndpointWebExtension(endpoint = DeadLettersEndpoint.class)
public class DeadLettersEndpointWebExtension {

    private final DeadLettersEndpoint endpoint;

    public DeadLettersEndpointWebExtension(DeadLettersEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    @WriteOperation
    public WebEndpointResponse<Map<String, Object>> replay(
            @Nullable String source,
            @Nullable String step,
            @Nullable String since,
            @Nullable Long fromOffset,
            @Nullable Long toOffset,
            @Nullable String topic) {
        try {
            return new WebEndpointResponse<>(endpoint.replay(source, step, since, fromOffset, toOffset, topic));
        } catch (InvalidEndpointRequestException refused) {
            return error(source, step, WebEndpointResponse.STATUS_BAD_REQUEST, refused.getMessage());
        } catch (IllegalStateException failed) {
            return error(source, step, WebEndpointResponse.STATUS_INTERNAL_SERVER_ERROR, failed.getMessage());
        }
    }

    private static WebEndpointResponse<Map<String, Object>> error(
            @Nullable String source, @Nullable String step, int status, @Nullable String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put(step != null ? "step" : "source", step != null ? step : source);
        body.put("status", status);
        body.put("reason", reason);
        return new WebEndpointResponse<>(body, status);
    }
}
