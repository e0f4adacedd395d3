/**
 * Startup failures in the user's words: the configuration exception (property, value, problem, action), the
 * failure analyzer that prints it, and the shared range checks.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.diagnostics;

import org.jspecify.annotations.NullMarked;
