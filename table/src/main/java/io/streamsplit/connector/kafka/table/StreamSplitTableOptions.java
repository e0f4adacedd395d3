package io.streamsplit.connector.kafka.table;

import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import io.streamsplit.connector.kafka.source.option.SourceOption;
import io.streamsplit.connector.kafka.source.option.SourceOptions;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.jspecify.annotations.Nullable;

/**
 * The options {@code 'streamsplit-kafka'} has on top of the official {@code 'kafka'} connector's: what the
 * StreamSplit source does with a record its format cannot read, a rate limit, and a control topic.
 *
 * <pre>{@code
 * 'scan.bad-record-policy' = 'dead-letter',        -- fail (default) | skip | dead-letter
 * 'scan.dead-letter-topic' = 'orders.DLT',         -- the record as read, with the error in its headers
 *                                                  -- (written by the source, at-least-once)
 * 'scan.max-records-per-second' = '5000',          -- for the whole table, split over its readers
 * 'scan.control-topic' = 'streamsplit-control'     -- pause, resume, re-throttle while the query runs
 * }</pre>
 */
@PublicEvolving
public final class StreamSplitTableOptions {

    /** What to do with a record the key or value format cannot read. */
    public static final ConfigOption<String> SCAN_BAD_RECORD_POLICY = ConfigOptions.key("scan.bad-record-policy")
            .stringType()
            .defaultValue("fail")
            .withDescription("What to do with a record the key or value format cannot read: 'fail' the job,"
                    + " 'skip' it, or 'dead-letter' it: write it as read to 'scan.dead-letter-topic' (counted"
                    + " in the source's metrics either way).");

    /** Where the {@code dead-letter} policy writes the records the formats cannot read. */
    public static final ConfigOption<String> SCAN_DEAD_LETTER_TOPIC = ConfigOptions.key("scan.dead-letter-topic")
            .stringType()
            .noDefaultValue()
            .withDescription("The topic the 'dead-letter' policy writes unreadable records to: key, value and"
                    + " headers as read, with where they came from and why they failed in streamsplit.dlt.* and"
                    + " spring-kafka's kafka_dlt-* headers. Written by the table's source with its own producer"
                    + " (the 'properties.*' connection settings), flushed at every checkpoint: at-least-once.");

    /** A compacted topic the table's source takes pause, resume and rate commands from while it runs. */
    public static final ConfigOption<String> SCAN_CONTROL_TOPIC = ConfigOptions.key("scan.control-topic")
            .stringType()
            .noDefaultValue()
            .withDescription("A compacted topic the table's source takes pause, resume and rate commands from"
                    + " while the query runs: a record keyed by the table's full name"
                    + " (default_catalog.default_database.orders) with the value 'paused=true', 'paused=false'"
                    + " or 'max-records-per-second=500' (the Spring Boot starter's control topic and"
                    + " /actuator/streamsplit write the same records); unset: no commands.");

    /**
     * The control topic of every table that sets no {@code 'scan.control-topic'}: a session setting
     * ({@code SET 'streamsplit.scan.control-topic' = 'my-app-control'}); the Spring Boot starter's SQL
     * statements set it to the application's {@code streamsplit.kafka.control-topic}.
     */
    public static final ConfigOption<String> DEFAULT_CONTROL_TOPIC = ConfigOptions.key("streamsplit.scan.control-topic")
            .stringType()
            .noDefaultValue()
            .withDescription("The control topic of the StreamSplit tables that set no 'scan.control-topic'.");

    private StreamSplitTableOptions() {}

    /** Ours: the options above, and {@code scan.<key>} of each of the source's declared settings ({@link SourceOptions}). */
    static Set<ConfigOption<?>> all() {
        Set<ConfigOption<?>> options =
                new HashSet<>(Set.of(SCAN_BAD_RECORD_POLICY, SCAN_DEAD_LETTER_TOPIC, SCAN_CONTROL_TOPIC));
        tableOnly().forEach(option -> options.add(option.tableOption()));
        return options;
    }

    /**
     * The declared settings a table sets as {@code scan.<key>}; the others have the official connector's name
     * ({@link SourceOption#withTableKey}), which its factory reads and hands over like its own tables'.
     */
    static List<SourceOption<?>> tableOnly() {
        return SourceOptions.all().stream()
                .filter(option -> option.tableKey().equals("scan." + option.key()))
                .toList();
    }

    /** The official connector's optional options and ours: what a StreamSplit table factory accepts. */
    static Set<ConfigOption<?>> withOfficial(Set<ConfigOption<?>> official) {
        Set<ConfigOption<?>> options = new HashSet<>(official);
        options.addAll(all());
        return options;
    }

    /** The planned official {@code source} read by StreamSplit, with the reading options of its table. */
    static StreamSplitKafkaTableSource streamSplit(KafkaDynamicSource source, DynamicTableFactory.Context table) {
        StreamSplitKafkaTableSource ours = source instanceof StreamSplitKafkaTableSource planned
                ? planned
                : StreamSplitKafkaTableSource.of(source);
        return ours.reading(Reading.of(
                Configuration.fromMap(table.getCatalogTable().getOptions()),
                table.getObjectIdentifier().asSummaryString(),
                table.getConfiguration().getOptional(DEFAULT_CONTROL_TOPIC).orElse(null)));
    }

    /** The reading settings of one table. */
    record Reading(
            BadRecordPolicy badRecordPolicy,
            @Nullable String deadLetterTopic,
            @Nullable String controlTopic,
            Map<String, Object> sourceOptions)
            implements java.io.Serializable {

        static final Reading DEFAULT = new Reading(BadRecordPolicy.FAIL, null, null, Map.of());

        static Reading of(ReadableConfig options, String table, @Nullable String defaultControlTopic) {
            String written = options.get(SCAN_BAD_RECORD_POLICY);
            BadRecordPolicy policy;
            try {
                policy = BadRecordPolicy.parse(written);
            } catch (IllegalArgumentException e) {
                throw new ValidationException("Table " + table + ": '" + SCAN_BAD_RECORD_POLICY.key() + "' = '"
                        + written + "' is not a policy; use 'fail', 'skip' or 'dead-letter'.");
            }
            String deadLetterTopic = options.getOptional(SCAN_DEAD_LETTER_TOPIC)
                    .map(String::strip)
                    .orElse(null);
            if (policy == BadRecordPolicy.DEAD_LETTER && (deadLetterTopic == null || deadLetterTopic.isEmpty())) {
                throw new ValidationException("Table " + table + ": '" + SCAN_BAD_RECORD_POLICY.key()
                        + "' = 'dead-letter' needs the topic to write them to: add '" + SCAN_DEAD_LETTER_TOPIC.key()
                        + "' = '<topic>', or use 'skip'.");
            }
            if (policy != BadRecordPolicy.DEAD_LETTER && deadLetterTopic != null) {
                throw new ValidationException("Table " + table + ": '" + SCAN_DEAD_LETTER_TOPIC.key() + "' = '"
                        + deadLetterTopic + "' is only used with '" + SCAN_BAD_RECORD_POLICY.key()
                        + "' = 'dead-letter', and this table's policy is '" + written
                        + "': set the policy to 'dead-letter', or remove the topic.");
            }
            Map<String, Object> declared = new LinkedHashMap<>();
            for (SourceOption<?> option : tableOnly()) {
                declared(options, option, table).ifPresent(value -> declared.put(option.key(), value));
            }
            return new Reading(
                    policy,
                    deadLetterTopic,
                    options.getOptional(SCAN_CONTROL_TOPIC).orElse(defaultControlTopic),
                    Map.copyOf(declared));
        }

        /** The table's {@code scan.<key>} of {@code option} when it sets one, checked against the option's rule. */
        private static <T> Optional<T> declared(ReadableConfig options, SourceOption<T> option, String table) {
            Optional<T> value = options.getOptional(option.tableOption());
            if (value.isPresent() && !option.allows(value.get())) {
                throw new ValidationException(
                        "Table " + table + ": '" + option.tableOption().key() + "' = '"
                                + value.get() + "' must be " + option.requirement() + "; remove it for the default "
                                + option.defaultWritten() + ".");
            }
            return value;
        }
    }
}
