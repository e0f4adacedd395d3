package io.streamsplit.connector.kafka.source.option;

import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The source's settings that are declared as {@link SourceOption}s. A new one is a constant here and an entry in
 * {@link #all()}: the builder checks it, the starter binds it from {@code streamsplit.kafka.sources.<name>.<key>}
 * and lists it for the IDE, and SQL tables take it as {@code 'scan.<key>'}.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.source.option.SourceOptions;
 *
 * StreamSplitKafkaSource.<String>builder().set(SourceOptions.MAX_POLL_RECORDS, 500);
 * }</pre>
 */
@PublicEvolving
public final class SourceOptions {

    /**
     * Records one poll of a reader's consumer hands over at most. More than Kafka's 500: fewer polls and hand-overs
     * per record, 1.3-1.5x throughput on 10 B-1 KB records with the fetch size each reader picks (benchmarks
     * module); not more by default, since polled records wait in Flink's hand-over queue, and 10,000 of 1 KB per
     * poll outlived young collections and tripled GC time on large records. A reader with several partitions
     * takes its share of this per partition.
     */
    public static final SourceOption<Integer> MAX_POLL_RECORDS = SourceOption.of(
                    "max-poll-records",
                    Integer.class,
                    2_000,
                    "Most records one poll of a reader's Kafka consumer hands over (Kafka's max.poll.records). Lower"
                            + " it for large records that fill the heap between polls.")
            .requiring(records -> records >= 1, "at least 1")
            .asConsumerProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG);

    /**
     * How often the enumerator looks for new and deleted partitions and topics; off by default (partitions found
     * once, at start). Below 100 ms a discovery would run more often than it can answer, so it is refused rather
     * than taken as a mistyped unit. SQL tables take it as Flink's {@code 'kafka'} connector does.
     */
    public static final SourceOption<Duration> DISCOVERY_INTERVAL = SourceOption.interval(
                    "discovery-interval",
                    Duration.ofMillis(100),
                    "30s",
                    "How often to look for new and deleted partitions and topics of the source, e.g. 30s. 0 (the"
                            + " default): once, at start.")
            .withTableKey("scan.topic-partition-discovery.interval");

    /**
     * At most this many records per second for the whole source, split evenly over its readers (Flink's
     * {@code RateLimiterStrategy} on {@code SourceReaderBase}); 0, the default, reads unthrottled, as a control
     * command's {@code max-records-per-second=0} does while the source runs.
     */
    public static final SourceOption<Double> MAX_RECORDS_PER_SECOND = SourceOption.of(
                    "max-records-per-second",
                    Double.class,
                    0.0,
                    "At most this many records per second for the whole source, split evenly over its readers. 0"
                            + " (the default): unthrottled.")
            .requiring(
                    rate -> rate == 0 || (rate > 0 && !rate.isInfinite()),
                    "0 (unthrottled) or a positive rate such as 1000");

    private static final List<SourceOption<?>> ALL =
            List.of(DISCOVERY_INTERVAL, MAX_RECORDS_PER_SECOND, MAX_POLL_RECORDS);

    private SourceOptions() {}

    /** Every declared setting, in the order the docs list them. */
    public static List<SourceOption<?>> all() {
        return ALL;
    }
}
