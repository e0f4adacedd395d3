package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.autoconfigure.flink.FlinkConfigurationMapper;
import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.state.JobIdentity;
import io.streamsplit.boot.job.state.RetainedCheckpointPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Where an embedded job resumes: the newest state any of its runs left in its storage (a checkpoint of
 * any generation, or a savepoint beside them), with the id of the generation it continues; nothing
 * retained means a new generation from the sources' starting offsets.
 */
@ExtendWith(OutputCaptureExtension.class)
class EmbeddedCheckpointsTest {

    private static final JobIdentity ORDERS = JobIdentity.of("orders");

    @TempDir
    Path storage;

    @Test
    void aStartResumesFromTheNewestStateOfAnyRunASavepointIncluded() throws IOException {
        checkpoint(1, 7, "2026-12-06T09:00:00Z");
        checkpoint(2, 3, "2026-12-06T09:10:00Z");
        Path savepoint = Files.createDirectories(storage.resolve("savepoints")
                .resolve("savepoint-" + ORDERS.jobId(0).toHexString().substring(0, 6) + "-ab12"));
        touch(savepoint.resolve("_metadata"), "2026-12-06T09:20:00Z");

        JobDefinition definition = define();
        EmbeddedCheckpoints.resume(definition, RetainedCheckpointPolicy.ALWAYS);

        assertThat(definition.configuration().get(StateRecoveryOptions.SAVEPOINT_PATH))
                .as("the stop's savepoint is newer than every checkpoint")
                .endsWith(savepoint.getFileName().toString());
        assertThat(definition.configuration().get(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID))
                .as("the run continues the newest generation")
                .isEqualTo(ORDERS.jobId(2).toHexString());
    }

    @Test
    void theNewestCheckpointAcrossGenerationsWins() throws IOException {
        checkpoint(1, 9, "2026-12-06T09:30:00Z");
        checkpoint(2, 3, "2026-12-06T09:10:00Z");

        JobDefinition definition = define();
        EmbeddedCheckpoints.resume(definition, RetainedCheckpointPolicy.ALWAYS);

        assertThat(definition.configuration().get(StateRecoveryOptions.SAVEPOINT_PATH))
                .endsWith(ORDERS.jobId(1).toHexString() + "/chk-9");
    }

    @Test
    void withNothingRetainedTheJobStartsANewGenerationFromItsStartingOffsets() throws IOException {
        Files.createDirectories(storage.resolve(ORDERS.jobId(1).toHexString())); // a run that never checkpointed

        JobDefinition definition = define();
        EmbeddedCheckpoints.resume(definition, RetainedCheckpointPolicy.ALWAYS);

        assertThat(definition.configuration().contains(StateRecoveryOptions.SAVEPOINT_PATH))
                .isFalse();
        assertThat(definition.configuration().get(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID))
                .isEqualTo(ORDERS.jobId(2).toHexString());
    }

    @Test
    void savepointsGoBesideTheCheckpointsUnlessADirectoryIsSet() {
        assertThat(define().configuration().get(CheckpointingOptions.SAVEPOINT_DIRECTORY))
                .isEqualTo(storage.toUri() + "savepoints");
    }

    @Test
    void storageTheApplicationCannotWriteIsRefusedNamingTheKeyAndThePath() throws IOException {
        Path aFile = Files.writeString(storage.resolve("not-a-directory"), "");

        assertThatThrownBy(() -> EmbeddedCheckpoints.requireWritable(
                        "streamsplit.flink.checkpointing.storage", aFile.toUri().toString(), false))
                .isInstanceOf(InvalidStreamSplitConfigurationException.class)
                .hasMessageContaining("streamsplit.flink.checkpointing.storage")
                .hasMessageContaining(aFile.toString())
                .hasMessageContaining("cannot be written");
    }

    @Test
    void restartsThatWouldReadSourcesAgainAreSaidOnceNamingTheSettings(CapturedOutput output) {
        EmbeddedCheckpoints.warnIfRestartsReprocess("orders", null, Map.of("words", "earliest"));
        assertThat(output).doesNotContain("from their starting offsets again");

        EmbeddedCheckpoints.warnIfRestartsReprocess(
                "orders",
                "the Kafka cluster did not answer at startup",
                Map.of("words", "earliest", "clicks", "committed"));

        assertThat(output)
                .contains("WARN", "'words' (starting-offsets earliest)", "streamsplit.flink.checkpointing.storage")
                .contains("streamsplit.kafka.sources.<name>.group-id")
                .doesNotContain("'clicks'");
    }

    private JobDefinition define() {
        return FlinkConfigurationMapper.jobDefinition(
                new FlinkProperties(), "orders", storage.toUri().toString(), null);
    }

    private void checkpoint(long generation, long id, String writtenAt) throws IOException {
        Path checkpoint = Files.createDirectories(
                storage.resolve(ORDERS.jobId(generation).toHexString()).resolve("chk-" + id));
        touch(checkpoint.resolve("_metadata"), writtenAt);
    }

    private static void touch(Path file, String at) throws IOException {
        Files.writeString(file, "");
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse(at)));
    }
}
