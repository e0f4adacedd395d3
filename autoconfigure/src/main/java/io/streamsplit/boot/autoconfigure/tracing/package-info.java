/** Auto-configuration of spans per record when Micrometer Tracing is on the classpath. */
@NullMarked
package io.streamsplit.boot.autoconfigure.tracing;

import org.jspecify.annotations.NullMarked;
