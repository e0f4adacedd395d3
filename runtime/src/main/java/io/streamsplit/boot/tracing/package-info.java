/**
 * A span per record read and written, with Micrometer Tracing: what the connector's sources and sinks
 * call, in the application's JVM, when Micrometer Tracing is on its classpath. Wired by
 * {@code io.streamsplit.boot.autoconfigure.tracing}.
 */
@NullMarked
package io.streamsplit.boot.tracing;

import org.jspecify.annotations.NullMarked;
