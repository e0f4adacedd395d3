/**
 * What the StreamSplit source and the dead-letter writers tell Flink's lineage interface (FLIP-314): their Kafka
 * topics, namespaced by the cluster, in the official Kafka connector's facets, so OpenLineage and other lineage
 * listeners see them as they see the official connector's.
 */
@NullMarked
package io.streamsplit.connector.kafka.lineage;

import org.jspecify.annotations.NullMarked;
