/**
 * The source's settings declared once: each {@link io.streamsplit.connector.kafka.source.option.SourceOption}
 * says its key, type, default, description and rule, and the builder's check, the error's setting name, the
 * Spring Boot property ({@code streamsplit.kafka.sources.<name>.<key>}), its IDE metadata and the SQL table
 * option ({@code scan.<key>}) are derived from it.
 */
@NullMarked
package io.streamsplit.connector.kafka.source.option;

import org.jspecify.annotations.NullMarked;
