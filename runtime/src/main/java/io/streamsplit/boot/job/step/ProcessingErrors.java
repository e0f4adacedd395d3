package io.streamsplit.boot.job.step;

import io.streamsplit.pipeline.ProcessingErrorPolicy;
import io.streamsplit.pipeline.step.StepErrorRules;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The processing-error rules of the job's steps as the application configures them: {@code
 * streamsplit.processing-errors.steps.<name>.*} over what the step's code set over {@code
 * streamsplit.processing-errors.*}.
 *
 * <pre>{@code
 * StepErrorRules rules = errors.rules("price", new ProcessingErrors.FromCode(3, null, null, null, List.of()));
 * }</pre>
 */
public interface ProcessingErrors {

    /**
     * What a step's code set ({@code pipeline.step("price").retries(3)}); {@code null}: not set.
     *
     * @param notRetryable exception class names
     */
    record FromCode(
            @Nullable Integer retries,
            @Nullable Duration backOff,
            @Nullable ProcessingErrorPolicy policy,
            @Nullable String deadLetterTopic,
            List<String> notRetryable) {}

    /** The rules of step {@code step}; refuses a bad setting naming its property. */
    StepErrorRules rules(String step, FromCode code);

    /** The steps {@code streamsplit.processing-errors.steps} configures. */
    Set<String> configuredSteps();

    /** The property path of step {@code step}'s settings, ending in a dot. */
    static String prefix(String step) {
        return "streamsplit.processing-errors.steps." + step + ".";
    }
}
