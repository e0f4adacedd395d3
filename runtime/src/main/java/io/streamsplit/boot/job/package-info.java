/**
 * The application's Flink job: building it from the pipeline beans, submitting it after startup, stopping it
 * on shutdown, and its {@code JobClient}.
 */
@NullMarked
package io.streamsplit.boot.job;

import org.jspecify.annotations.NullMarked;
