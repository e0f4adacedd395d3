/**
 * Replicas of an embedded application: the instances of one application (its job name, on one Kafka cluster)
 * elect one active instance through Kafka's group membership protocol, as Kafka Connect's workers and Schema
 * Registry elect a leader; the active one runs the job, the others stand by and take over when it stops or dies.
 */
@NullMarked
package io.streamsplit.boot.job.replica;

import org.jspecify.annotations.NullMarked;
