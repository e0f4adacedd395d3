/** An Apache Kafka broker (KRaft, Kafka's own server classes) in the JVM, for tests and dev mode, and its JUnit 5 extension. */
@NullMarked
package io.streamsplit.embedded.kafka;

import org.jspecify.annotations.NullMarked;
