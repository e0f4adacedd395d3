package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.autoconfigure.flink.FlinkConfigurationMapper;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.job.state.ShutdownJob;
import io.streamsplit.boot.job.state.UpgradeMode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the job's lifecycle gets of {@code streamsplit.flink.*}, as the properties ship and as a user sets them. */
class JobSettingsTest {

    @Test
    void theDefaultsAsTheyShip() {
        JobSettings settings = FlinkConfigurationMapper.jobSettings(new FlinkProperties(), 4, keptIn("file:///ck"));

        assertThat(settings.enabled()).isTrue();
        assertThat(settings.mode()).isEqualTo(FlinkMode.EMBEDDED);
        assertThat(settings.onShutdown())
                .as("an embedded job that keeps its checkpoints stops with a savepoint the next start resumes from")
                .isEqualTo(ShutdownJob.SAVEPOINT);
        assertThat(settings.checkpointing()).isTrue();
        assertThat(settings.embeddedSlots()).as("the job's parallelism").isEqualTo(4);
        assertThat(settings.runs().upgradeMode()).isEqualTo(UpgradeMode.SAVEPOINT);
        assertThat(settings.runs().restorePath()).isNull();
        assertThat(settings.runs().stopTimeout()).isPositive();
    }

    @Test
    void anEmbeddedJobWhoseStateIsNotKeptIsCancelledWhenTheApplicationStops() {
        FlinkProperties flink = new FlinkProperties();
        JobDefinition inMemory = FlinkConfigurationMapper.jobDefinition(flink, "words", null, "checkpoints in memory");

        assertThat(FlinkConfigurationMapper.jobSettings(flink, 1, inMemory).onShutdown())
                .as("no savepoint the next start would find")
                .isEqualTo(ShutdownJob.CANCEL);
        flink.getShutdown().setJob(ShutdownJob.CANCEL);
        assertThat(FlinkConfigurationMapper.jobSettings(flink, 1, keptIn("file:///ck"))
                        .onShutdown())
                .as("shutdown.job: cancel keeps the old behaviour")
                .isEqualTo(ShutdownJob.CANCEL);
    }

    private static JobDefinition keptIn(String storage) {
        return FlinkConfigurationMapper.jobDefinition(new FlinkProperties(), "words", storage, null);
    }

    @Test
    void aRemoteJobIsKeptRunningWhenTheApplicationStops() {
        FlinkProperties flink = new FlinkProperties();
        flink.setMode(FlinkMode.REMOTE);
        flink.setRestorePath("file:///savepoints/sp-1");
        flink.getShutdown().setTimeout(Duration.ofSeconds(42));
        flink.getEmbedded().setTaskSlots(3);

        JobSettings settings = FlinkConfigurationMapper.jobSettings(flink, 8, keptIn("file:///ck"));

        assertThat(settings.onShutdown()).isEqualTo(ShutdownJob.KEEP);
        assertThat(settings.embeddedSlots())
                .as("streamsplit.flink.embedded.task-slots")
                .isEqualTo(3);
        assertThat(settings.runs().restorePath()).isEqualTo("file:///savepoints/sp-1");
        assertThat(settings.runs().stopTimeout()).isEqualTo(Duration.ofSeconds(42));
    }

    @Test
    void anApplicationModeStartWithoutAJobFailsAndOtherModesOnlyLogIt() {
        FlinkProperties application = new FlinkProperties();
        application.setMode(FlinkMode.APPLICATION);
        assertThatThrownBy(() -> FlinkConfigurationMapper.jobSettings(application, 1, keptIn("file:///ck"))
                        .requireJob("streamsplit.flink.mode", "application", "it has no pipeline"))
                .isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
                    assertThat(e.getProblem()).contains("to run its job, but it has no pipeline");
                    assertThat(e.getAction()).contains("@Bean StreamSplitPipeline");
                });
        assertThatCode(() -> FlinkConfigurationMapper.jobSettings(new FlinkProperties(), 1, keptIn("file:///ck"))
                        .requireJob("streamsplit.flink.mode", "embedded", "it has no pipeline"))
                .doesNotThrowAnyException();
    }
}
