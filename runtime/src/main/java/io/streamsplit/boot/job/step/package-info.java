/**
 * The pipelines' steps ({@code pipeline.step(name)}) as one job build adds them: their processing-error rules
 * from YAML and code, the guarded operator and its dead-letter writer, and the steps of the job built last.
 */
@NullMarked
package io.streamsplit.boot.job.step;

import org.jspecify.annotations.NullMarked;
