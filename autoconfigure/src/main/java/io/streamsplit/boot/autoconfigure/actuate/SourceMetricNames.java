package io.streamsplit.boot.autoconfigure.actuate;

import java.util.Set;

import io.streamsplit.connector.kafka.source.enumerator.KafkaSourceEnumerator;

/** Operator-level metric names (outside the {@code KafkaSourceReader} group) the actuator reads. */
final class SourceMetricNames {

    static final String RECORDS_IN = "numRecordsIn";
    static final String WATERMARK = "currentOutputWatermark";

    static final Set<String> OPERATOR_METRICS = Set.of(RECORDS_IN, WATERMARK,
            KafkaSourceEnumerator.METRIC_ASSIGNED_SPLITS, KafkaSourceEnumerator.METRIC_PENDING_SPLITS,
            KafkaSourceEnumerator.METRIC_PENDING_PARTITIONS, KafkaSourceEnumerator.METRIC_LAST_DISCOVERY_TIME);

    private SourceMetricNames() {
    }
}
