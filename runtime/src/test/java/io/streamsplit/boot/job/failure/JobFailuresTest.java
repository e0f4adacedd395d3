package io.streamsplit.boot.job.failure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How a failure's text becomes one sentence and a class: a step's failure says its own message (step, record,
 * attempts, fix), an operator chained to its source gets the record the source added, and the root exception's
 * class is the innermost cause's.
 */
class JobFailuresTest {

    private static final String STEP = """
            io.streamsplit.pipeline.step.StepFailedException: Step 'price' failed on the record at topic orders, \
            partition 1, offset 41 (source 'orders') after 3 attempts: java.lang.IllegalStateException: no price. \
            The job restarts from its last checkpoint
            \tat io.streamsplit.pipeline.step.StepGuard.giveUp(StepGuard.java:1)
            Caused by: java.lang.IllegalStateException: no price
            \tat com.example.Prices.price(Prices.java:7)
            """;

    private static final String CHAINED = """
            java.lang.ArithmeticException: / by zero
            \tat com.example.Ratio.map(Ratio.java:9)
            \tSuppressed: io.streamsplit.connector.kafka.source.reader.KafkaSourceRecordEmitter$OnRecord: while \
            processing the record at topic orders, partition 0, offset 7 (source 'orders')
            """;

    // no source or sink is asked: the failures below are not Kafka problems
    private final JobFailures failures = new JobFailures(null, null, null, true, "User:app");

    @Test
    void aStepsFailureIsDescribedInItsOwnWords() {
        assertThat(failures.describe(STEP, "price -> sink totals: Writer (1/2)"))
                .startsWith("Step 'price' failed on the record at topic orders, partition 1, offset 41")
                .endsWith("The job restarts from its last checkpoint.");
    }

    @Test
    void anOperatorChainedToItsSourceNamesTheRecord() {
        assertThat(failures.describe(CHAINED, "Map -> sink totals: Writer (1/1)"))
                .isEqualTo("java.lang.ArithmeticException: / by zero, while processing the record at topic orders,"
                        + " partition 0, offset 7 (source 'orders') (in Map -> sink totals: Writer (1/1)).");
    }

    @Test
    void theRootCauseClassIsTheInnermostCause() {
        assertThat(JobFailures.rootCauseClass(STEP)).isEqualTo("java.lang.IllegalStateException");
        assertThat(JobFailures.rootCauseClass(CHAINED)).isEqualTo("java.lang.ArithmeticException");
        assertThat(JobFailures.rootCauseClass("")).isEqualTo("unknown");
    }
}
