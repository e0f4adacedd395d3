/**
 * A {@code streamsplit.*} setting that cannot work, in the user's words: the exception that names the property,
 * the bad value, the problem and the fix, and the range and spelling checks that raise it. Runtime code and the
 * auto-configuration both raise it; the auto-configuration's failure analyzers print it.
 */
@NullMarked
package io.streamsplit.boot.config;

import org.jspecify.annotations.NullMarked;
