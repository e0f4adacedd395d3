/**
 * A failure of the running job in the user's words: what Flink's exception history says it means in
 * {@code application.yml}'s terms (which source, sink or setting, and what to do), read while the job runs and
 * logged once per failure.
 */
@NullMarked
package io.streamsplit.boot.job.failure;

import org.jspecify.annotations.NullMarked;
