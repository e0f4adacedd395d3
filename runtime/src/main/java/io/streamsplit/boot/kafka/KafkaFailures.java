package io.streamsplit.boot.kafka;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Says in a sentence what a Kafka authentication or authorization failure inside a Flink job means
 * and what to grant, for the job-failure log and the health details. Works on the failure's text
 * (a stack trace from Flink's REST API, or a local exception's), because a remote job's exceptions
 * arrive as Flink's serialized copies.
 */
public final class KafkaFailures {

    private static final Map<String, String> EXPLANATIONS = new LinkedHashMap<>();

    static {
        EXPLANATIONS.put(
                "TransactionalIdAuthorizationException",
                "Kafka denies the exactly-once sink its"
                        + " transactional ids: its principal needs WRITE and DESCRIBE on transactional ids starting with the"
                        + " sink's transactional-id-prefix (default <job>-<sink>), e.g. kafka-acls.sh --add --allow-principal"
                        + " User:<name> --operation Write --operation Describe --transactional-id <prefix>"
                        + " --resource-pattern-type prefixed");
        EXPLANATIONS.put(
                "TopicAuthorizationException",
                "Kafka denies a topic to the job's principal: sources need"
                        + " READ (and DESCRIBE for discovery), sinks WRITE; the exception names the topics");
        EXPLANATIONS.put(
                "GroupAuthorizationException",
                "Kafka denies the source's consumer group: its principal"
                        + " needs READ on the group (group-id) to fetch committed offsets and commit on checkpoints");
        EXPLANATIONS.put(
                "ClusterAuthorizationException",
                "Kafka denies a cluster-level operation to the job's"
                        + " principal (e.g. IDEMPOTENT_WRITE on an old broker, or DESCRIBE_CONFIGS)");
        EXPLANATIONS.put(
                "SaslAuthenticationException",
                "Kafka rejected the job's SASL credentials: check the user,"
                        + " password and sasl.mechanism in the client properties (the values are not shown)");
        EXPLANATIONS.put(
                "SslAuthenticationException",
                "the TLS handshake with Kafka failed: the trust material must"
                        + " hold the CA of the broker's certificate, and the broker's host name must match it");
    }

    private KafkaFailures() {}

    /** What the Kafka access error in {@code failureText} means and what to do; null if there is none. */
    public static @Nullable String explain(@Nullable String failureText) {
        if (failureText == null) {
            return null;
        }
        for (Map.Entry<String, String> explanation : EXPLANATIONS.entrySet()) {
            if (failureText.contains(explanation.getKey())) {
                return explanation.getValue() + ".";
            }
        }
        return null;
    }

    /** {@link #explain(String)} for a local exception and its causes. */
    public static @Nullable String explain(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            text.append(t.getClass().getName())
                    .append(": ")
                    .append(t.getMessage())
                    .append('\n');
        }
        return explain(text.toString());
    }
}
