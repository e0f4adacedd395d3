/**
 * The start-up check of the YAML's Kafka: every cluster asked once whether its hosts resolve, a broker answers,
 * the topics exist (or are created) and the sinks' transactions fit the brokers; problems fail startup naming the
 * {@code streamsplit.*} key, the value and the fix.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.kafka.startup;

import org.jspecify.annotations.NullMarked;
