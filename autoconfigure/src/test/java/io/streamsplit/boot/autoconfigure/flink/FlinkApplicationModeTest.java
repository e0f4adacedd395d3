package io.streamsplit.boot.autoconfigure.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;

/**
 * In application mode Flink's classes come from the cluster's image and Flink expects a job from the
 * application it started: a Flink minor the starter was not built for, and an application without a
 * job, fail startup saying what to change.
 */
class FlinkApplicationModeTest {

    @Test
    void theStarterKnowsTheFlinkVersionItIsBuiltFor() {
        String[] running = EnvironmentInformation.getVersion().split("\\.");
        assertThat(FlinkApplicationMode.builtFor()).startsWith(running[0] + "." + running[1] + ".");
    }

    @Test
    void anotherFlinkMinorOnTheClusterFailsStartupNamingBothAndTheImageToUse() {
        assertThatThrownBy(() -> FlinkApplicationMode.checkFlinkVersion("2.3.0", "2.2.1"))
                .isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
                    assertThat(e.getProperty()).isEqualTo("streamsplit.flink.mode");
                    assertThat(e.getProblem()).contains("Flink 2.2.1 started this application", "Flink 2.3.0");
                    assertThat(e.getAction()).contains("Flink 2.3.x image", "flinkVersion v2_3", "for Flink 2.2");
                });
        assertThatCode(() -> FlinkApplicationMode.checkFlinkVersion("2.3.0", "2.3.2"))
                .as("patch releases of one minor run each other's jobs")
                .doesNotThrowAnyException();
    }
}
