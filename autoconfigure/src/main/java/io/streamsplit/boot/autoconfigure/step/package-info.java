/**
 * {@code streamsplit.processing-errors}: how the pipelines' steps treat a record their code fails on, mapped onto
 * the pipeline API's {@code StepErrorRules}.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.step;

import org.jspecify.annotations.NullMarked;
