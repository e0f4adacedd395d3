/**
 * The Flink side of a job: {@code streamsplit.flink.*}, its mapping onto Flink's configuration, the job's
 * definition, retained checkpoints, and the check that shipped user objects serialize.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.flink;

import org.jspecify.annotations.NullMarked;
