/**
 * Commands for a running source — pause, resume, a new rate limit — carried by a Kafka control topic
 * from whoever operates the job to the source's enumerator, which hands them to its readers as source
 * events. Works the same on an embedded MiniCluster and on a remote Flink cluster: the topic is the
 * only shared state.
 */
@NullMarked
package io.streamsplit.connector.kafka.source.control;

import org.jspecify.annotations.NullMarked;
