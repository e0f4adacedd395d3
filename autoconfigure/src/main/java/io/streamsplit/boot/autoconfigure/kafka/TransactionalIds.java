package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.jspecify.annotations.Nullable;

/**
 * The transactional id prefixes of the application's exactly-once writers (its sinks, and its sources' dead
 * letters when a sink is exactly-once), and the rule that no two share one: two transactional producers with
 * one prefix abort each other's transactions.
 */
final class TransactionalIds {

    private final StreamSplitKafkaProperties kafka;
    private final String jobName;
    private final @Nullable String springPrefix;

    /**
     * @param springPrefix {@code spring.kafka.producer.transaction-id-prefix}, or {@code null}
     */
    TransactionalIds(StreamSplitKafkaProperties kafka, String jobName, @Nullable String springPrefix) {
        this.kafka = kafka;
        this.jobName = jobName;
        this.springPrefix = springPrefix;
    }

    /**
     * The sink's {@code transactional-id-prefix}, else (exactly-once) {@code spring.kafka.producer.transaction-id-prefix}
     * and the sink's name, else the job's name and the sink's; {@code null} for a sink that is not transactional.
     */
    @Nullable
    String ofSink(String sinkName, KafkaSinkProperties sink) {
        if (sink.getTransactionalIdPrefix() != null
                && !sink.getTransactionalIdPrefix().isBlank()) {
            return sink.getTransactionalIdPrefix();
        }
        if (sink.getDeliveryGuarantee() != DeliveryGuarantee.EXACTLY_ONCE) {
            return null;
        }
        return safe((springPrefix != null ? springPrefix : jobName) + "-" + sinkName);
    }

    /** The prefix of source {@code sourceName}'s dead-letter writer when it is exactly-once. */
    String ofDeadLetters(String sourceName) {
        return safe(jobName + "-" + sourceName + "-dead-letters");
    }

    /** The prefix of pipeline step {@code step}'s dead-letter writer when it is exactly-once. */
    String ofStepDeadLetters(String step) {
        return safe(jobName + "-step-" + step + "-dead-letters");
    }

    /** The guarantee dead letters are written with: the strongest of the configured sinks; at-least-once without. */
    DeliveryGuarantee deadLetterGuarantee() {
        List<DeliveryGuarantee> order =
                List.of(DeliveryGuarantee.NONE, DeliveryGuarantee.AT_LEAST_ONCE, DeliveryGuarantee.EXACTLY_ONCE);
        return kafka.getSinks().values().stream()
                .map(KafkaSinkProperties::getDeliveryGuarantee)
                .max(Comparator.comparingInt(order::indexOf))
                .orElse(DeliveryGuarantee.AT_LEAST_ONCE);
    }

    /** Fails, naming the property, when two exactly-once writers would share a prefix. */
    void requireDistinct() {
        Map<String, String> prefixes = new HashMap<>();
        kafka.getSinks().forEach((name, sink) -> {
            if (sink.getDeliveryGuarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
                claim(prefixes, ofSink(name, sink), "streamsplit.kafka.sinks." + name);
            }
        });
        if (deadLetterGuarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
            kafka.getSources().forEach((name, source) -> {
                if (source.getBadRecordPolicy() == BadRecordPolicy.DEAD_LETTER) {
                    claim(prefixes, ofDeadLetters(name), KafkaSources.prefix(name) + "dead-letter-topic");
                }
            });
        }
    }

    private static void claim(Map<String, String> prefixes, @Nullable String prefix, String owner) {
        String other = prefix == null ? null : prefixes.putIfAbsent(prefix, owner);
        if (other != null) {
            throw new InvalidStreamSplitConfigurationException(
                    owner.endsWith("dead-letter-topic") ? owner : owner + ".transactional-id-prefix",
                    prefix,
                    "the transactional id prefix is also used by " + other + "; two transactional producers with one"
                            + " prefix abort each other's transactions",
                    "Give each exactly-once sink its own transactional-id-prefix (or leave it unset: the default is"
                            + " <job name>-<sink name>).");
        }
    }

    private static String safe(String prefix) {
        return prefix.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
