/**
 * Dev mode: an in-JVM Kafka broker when nothing else says where Kafka is.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.kafka.embedded;

import org.jspecify.annotations.NullMarked;
