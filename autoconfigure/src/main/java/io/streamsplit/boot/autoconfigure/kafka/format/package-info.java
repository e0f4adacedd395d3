/**
 * The built-in formats of {@code format:} and {@code key-format:}: which of the connector's
 * {@code io.streamsplit.connector.kafka.format} schemas a YAML source or sink gets, with the
 * application's JSON mapper, and every mistake reported against its property.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.kafka.format;

import org.jspecify.annotations.NullMarked;
