package io.streamsplit.boot.job.failure;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.junit.jupiter.api.Test;

/** Why a run did not start, in the user's words. */
class RunOutcomesTest {

    @Test
    void aJobThatCannotStartFromTheStateItResumesIsToldHowToGoOn() {
        Configuration job = new Configuration();
        job.set(StateRecoveryOptions.SAVEPOINT_PATH, "file:///checkpoints/orders/chk-12");
        IllegalStateException refused = new IllegalStateException(
                "Failed to rollback to checkpoint/savepoint",
                new IllegalStateException("Cannot map checkpoint/savepoint state for operator 5 to the new program,"
                        + " because the operator is not available in the new program. If you want to allow to skip"
                        + " this, you can set the --allowNonRestoredState option on the CLI."));

        assertThat(RunOutcomes.notStarted(refused, job))
                .startsWith("IllegalStateException: Cannot map checkpoint/savepoint state for operator 5")
                .contains("The job changed since file:///checkpoints/orders/chk-12 was taken")
                .contains("uid(\"…\")")
                .contains("streamsplit.flink.configuration.execution.state-recovery.ignore-unclaimed-state=true");
    }

    @Test
    void anyOtherFailureIsItsRootCause() {
        Exception failure = new RuntimeException("submission failed", new java.net.ConnectException("refused"));

        assertThat(RunOutcomes.notStarted(failure, new Configuration())).isEqualTo("ConnectException: refused");
    }
}
