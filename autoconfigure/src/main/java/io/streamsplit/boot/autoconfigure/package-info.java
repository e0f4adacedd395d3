/**
 * The StreamSplit auto-configuration: {@code streamsplit.*} properties, the source beans, and the wiring of
 * the role packages below. Role packages never depend on this one, and {@code actuate} depends on all.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
