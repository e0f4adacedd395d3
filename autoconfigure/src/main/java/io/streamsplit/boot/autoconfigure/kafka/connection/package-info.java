/**
 * Where Kafka is and how to reach it: connection details, shared client properties, SSL bundles as PEM,
 * the startup access check and the explanations of Kafka access errors.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.kafka.connection;

import org.jspecify.annotations.NullMarked;
