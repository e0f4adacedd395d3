package io.streamsplit.boot.actuate.deadletter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/deadletters}: each source's dead-letter topic (GET: its offsets per partition and
 * how far replays got) and, with a POST, a replay of them after a fix:
 * {@code {"source":"orders"}} sends every dead letter not yet replayed back to the topic and
 * partition it came from; {@code "since":"2026-12-04T06:00:00Z"} or {@code "fromOffset"} /
 * {@code "toOffset"} narrow it; {@code "topic":"orders-fixed"} writes to another topic instead.
 * Exactly once (see the replay's rules in the docs); refused while the source's deserializer would
 * still fail on them. The response counts what was replayed; the meter
 * {@code streamsplit.kafka.source.records.replayed} (tag source) counts it too.
 */
@Endpoint(id = "deadletters")
public class DeadLettersEndpoint {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLettersEndpoint.class);

    private final Supplier<Map<String, StreamSplitKafkaSource<?>>> sources;
    private final Supplier<Map<String, String>> deadLetterTopics;
    private final @Nullable MeterRegistry meters;
    private final Supplier<Map<String, String>> stepTopics;
    private final Supplier<java.util.Properties> clients;

    /**
     * @param sources the sources by name
     * @param deadLetterTopics the dead-letter topic of each source that has one (asked on each request: a
     *     table's source is known once the job is built)
     * @param meters where the replayed counts go, or {@code null}
     * @param stepTopics the dead-letter topic of each pipeline step that dead-letters (known once the job is built)
     * @param clients the application's Kafka client settings, for the steps' dead letters
     */
    public DeadLettersEndpoint(
            Supplier<Map<String, StreamSplitKafkaSource<?>>> sources,
            Supplier<Map<String, String>> deadLetterTopics,
            @Nullable MeterRegistry meters,
            Supplier<Map<String, String>> stepTopics,
            Supplier<java.util.Properties> clients) {
        this.sources = sources;
        this.deadLetterTopics = deadLetterTopics;
        this.meters = meters;
        this.stepTopics = stepTopics;
        this.clients = clients;
    }

    @ReadOperation
    public Map<String, Object> deadLetters() {
        Map<String, Object> all = new LinkedHashMap<>();
        deadLetterTopics.get().keySet().stream().sorted().forEach(name -> {
            try {
                all.put(name, replay(name).describe());
            } catch (RuntimeException e) {
                all.put(name, Map.of("error", String.valueOf(e.getMessage())));
            }
        });
        Map<String, Object> steps = new LinkedHashMap<>();
        stepTopics.get().forEach((step, topic) -> {
            try {
                steps.put(
                        step,
                        DeadLetterReplay.ofStep(step, topic, clients.get()).describe());
            } catch (RuntimeException e) {
                steps.put(step, Map.of("error", String.valueOf(e.getMessage())));
            }
        });
        if (!steps.isEmpty()) {
            all.put("steps", steps);
        }
        return all;
    }

    /**
     * Replays the dead letters of {@code source}, or of pipeline step {@code step} (exactly one of the two), to
     * where each came from or to {@code topic}.
     */
    @WriteOperation
    public Map<String, Object> replay(
            @Nullable String source,
            @Nullable String step,
            @Nullable String since,
            @Nullable Long fromOffset,
            @Nullable Long toOffset,
            @Nullable String topic) {
        if ((source == null) == (step == null)) {
            throw new InvalidEndpointRequestException(
                    "Name either a \"source\" or a \"step\" whose dead letters to replay", "source or step");
        }
        String name = source != null ? source : step;
        try {
            DeadLetterReplay replay =
                    source != null ? replay(source) : stepReplay(java.util.Objects.requireNonNull(step));
            Map<String, Object> result =
                    replay.replay(new DeadLetterReplay.Request(instant(since), fromOffset, toOffset, topic));
            long replayed = ((Number) Objects.requireNonNull(result.get("replayed"), "replayed")).longValue();
            if (meters != null) {
                Counter.builder("streamsplit.kafka.source.records.replayed")
                        .description("Dead letters sent back through the pipeline by a replay")
                        .baseUnit("records")
                        .tag(source != null ? "source" : "step", name)
                        .register(meters)
                        .increment(replayed);
            }
            LOG.info(
                    "Replayed {} dead letters of {} '{}' from {} to {} ({} already replayed before)",
                    replayed,
                    source != null ? "source" : "step",
                    name,
                    result.get("deadLetterTopic"),
                    result.get("topic"),
                    result.get("alreadyReplayed"));
            return result;
        } catch (DeadLetterReplay.Refused | InvalidEndpointRequestException refused) {
            LOG.warn("Refused to replay the dead letters of '{}': {}", name, refused.getMessage());
            throw refused instanceof InvalidEndpointRequestException invalid
                    ? invalid
                    : new InvalidEndpointRequestException(
                            String.valueOf(refused.getMessage()), String.valueOf(refused.getMessage()));
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Could not replay the dead letters of '" + name + "': " + e.getMessage(), e);
        }
    }

    private DeadLetterReplay stepReplay(String step) {
        Map<String, String> topics = stepTopics.get();
        String deadLetterTopic = topics.get(step);
        if (deadLetterTopic == null) {
            throw new InvalidEndpointRequestException(
                    "No step named '" + step + "' that dead-letters: use one of " + topics.keySet()
                            + " (steps with the dead-letter policy)",
                    "unknown step");
        }
        return DeadLetterReplay.ofStep(step, deadLetterTopic, clients.get());
    }

    private DeadLetterReplay replay(String source) {
        Map<String, String> topics = deadLetterTopics.get();
        String deadLetterTopic = topics.get(source);
        StreamSplitKafkaSource<?> built = sources.get().get(source);
        if (deadLetterTopic == null || built == null) {
            throw new InvalidEndpointRequestException(
                    "No source named '" + source + "' with a dead-letter topic: use one of "
                            + topics.keySet()
                            + " (sources with bad-record-policy dead-letter and a dead-letter-topic)",
                    "unknown source");
        }
        return new DeadLetterReplay(source, deadLetterTopic, built);
    }

    private static @Nullable Instant instant(@Nullable String since) {
        if (since == null) {
            return null;
        }
        try {
            return Instant.parse(since);
        } catch (DateTimeParseException e) {
            throw new InvalidEndpointRequestException(
                    "since '" + since + "' is not an ISO-8601 instant: write it like 2026-12-04T06:00:00Z",
                    "bad since");
        }
    }
}
