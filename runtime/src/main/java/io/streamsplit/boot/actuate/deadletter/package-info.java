/**
 * The {@code deadletters} endpoint: each source's dead letters, and their replay into the pipeline
 * after a fix, exactly once. Wired by {@code io.streamsplit.boot.autoconfigure.actuate}.
 */
@NullMarked
package io.streamsplit.boot.actuate.deadletter;

import org.jspecify.annotations.NullMarked;
