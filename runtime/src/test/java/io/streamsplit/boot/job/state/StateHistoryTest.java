package io.streamsplit.boot.job.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link StateHistory} keeps of the states a job's runs left, and what it deletes. */
class StateHistoryTest {

    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");
    private final JobIdentity identity = JobIdentity.of("orders");

    @TempDir
    Path storage;

    @TempDir
    Path savepoints;

    private Path checkpoint(long generation, int number, Duration age, boolean complete) throws IOException {
        Path directory = Files.createDirectories(
                storage.resolve(identity.jobId(generation).toHexString()).resolve("chk-" + number));
        if (complete) {
            Path metadata = Files.writeString(directory.resolve("_metadata"), "state");
            Files.setLastModifiedTime(metadata, FileTime.from(NOW.minus(age)));
        }
        Files.setLastModifiedTime(directory, FileTime.from(NOW.minus(age)));
        return directory;
    }

    private Path savepoint(String suffix, Duration age) throws IOException {
        Path directory = Files.createDirectories(savepoints.resolve(identity.savepointPrefix() + suffix));
        Files.setLastModifiedTime(
                Files.writeString(directory.resolve("_metadata"), "state"), FileTime.from(NOW.minus(age)));
        return directory;
    }

    private StateHistory.Pruned prune(int maxCount, Duration maxAge, Set<String> protect, JobID nextRun) {
        return new StateHistory(
                        identity,
                        storage.toUri().toString(),
                        savepoints.toUri().toString(),
                        new StateHistory.Limits(maxCount, maxAge))
                .prune(protect, nextRun, NOW);
    }

    private static boolean exists(Path path) {
        return Files.exists(path);
    }

    @Test
    void twentyRestartsLeaveTheNewestStatesUpToTheCountAndNothingElse() throws IOException {
        // each restart of an embedded job is a run of its own: its last checkpoint in the run's directory and the
        // stop's savepoint
        for (int restart = 1; restart <= 20; restart++) {
            checkpoint(restart, restart * 10, Duration.ofMinutes(100 - restart * 4L), true);
            savepoint("-" + restart, Duration.ofMinutes(100 - restart * 4L - 1));
        }

        StateHistory.Pruned pruned = prune(3, Duration.ofDays(7), Set.of(), identity.jobId(21));

        assertThat(pruned.kept()).hasSize(3);
        assertThat(pruned.kept().get(0).kind()).isEqualTo(RetainedState.Kind.SAVEPOINT);
        assertThat(pruned.kept().get(0).path()).endsWith("-20");
        assertThat(pruned.deleted())
                .as("37 states and the directories of runs 1 to 19")
                .hasSize(37 + 19);
        try (Stream<Path> left = Files.list(storage)) {
            assertThat(left)
                    .extracting(p -> p.getFileName().toString())
                    .containsExactly(identity.jobId(20).toHexString());
        }
        try (Stream<Path> left = Files.list(storage.resolve(identity.jobId(20).toHexString()))) {
            assertThat(left).extracting(p -> p.getFileName().toString()).containsExactly("chk-200");
        }
        try (Stream<Path> left = Files.list(savepoints)) {
            assertThat(left)
                    .extracting(p -> p.getFileName().toString())
                    .containsExactlyInAnyOrder(identity.savepointPrefix() + "-20", identity.savepointPrefix() + "-19");
        }
    }

    @Test
    void theNewestAndTheOneToResumeFromStayWhateverTheirAge() throws IOException {
        Path resumeFrom = checkpoint(1, 5, Duration.ofDays(30), true);
        Path newest = checkpoint(2, 9, Duration.ofDays(20), true);
        Path between = checkpoint(2, 7, Duration.ofDays(25), true);

        StateHistory.Pruned pruned = prune(
                3,
                Duration.ofDays(7),
                Set.of(new org.apache.flink.core.fs.Path(resumeFrom.toUri()).toString()),
                identity.jobId(3));

        assertThat(exists(newest)).as("the newest, however old").isTrue();
        assertThat(exists(resumeFrom)).as("the state the next run restores").isTrue();
        assertThat(exists(between))
                .as("older than max-age, neither newest nor resumed")
                .isFalse();
        assertThat(pruned.kept()).hasSize(2);
    }

    @Test
    void anEarlierRunsDirectoryGoesWithItsLastStateButNotTheNextRunsNorALiveCheckpoint() throws IOException {
        checkpoint(1, 3, Duration.ofHours(5), true);
        Path current = checkpoint(2, 4, Duration.ofHours(2), true);
        Path killed = checkpoint(2, 5, Duration.ofHours(2), false);
        Path writing = checkpoint(2, 6, Duration.ofSeconds(1), false);
        JobID nextRun = identity.jobId(3);
        Files.createDirectories(storage.resolve(nextRun.toHexString()));

        prune(1, Duration.ofDays(7), Set.of(), nextRun);

        assertThat(exists(storage.resolve(identity.jobId(1).toHexString())))
                .as("run 1, nothing kept")
                .isFalse();
        assertThat(exists(current)).isTrue();
        assertThat(exists(killed)).as("incomplete, an hour old").isFalse();
        assertThat(exists(writing)).as("incomplete, being written").isTrue();
        assertThat(exists(storage.resolve(nextRun.toHexString())))
                .as("the next run's directory")
                .isTrue();
    }

    /** After a periodic savepoint the live run's own checkpoints stay, however many savepoints are newer. */
    @Test
    void theLiveRunsCheckpointsAreLeftToFlink() throws IOException {
        Path live = checkpoint(2, 40, Duration.ofMinutes(10), true);
        savepoint("-a", Duration.ofMinutes(5));
        Path newest = savepoint("-b", Duration.ofMinutes(1));

        StateHistory.Pruned pruned = prune(1, Duration.ofDays(7), Set.of(), identity.jobId(2));

        assertThat(exists(live)).as("the live run's checkpoint").isTrue();
        assertThat(exists(newest)).isTrue();
        assertThat(pruned.kept())
                .extracting(RetainedState::path)
                .singleElement()
                .asString()
                .endsWith("-b");
    }

    @Test
    void anotherJobsStatesAreNotTouched() throws IOException {
        JobIdentity other = JobIdentity.of("payments");
        Path theirs = Files.createDirectories(
                storage.resolve(other.jobId(1).toHexString()).resolve("chk-1"));
        Files.writeString(theirs.resolve("_metadata"), "state");
        checkpoint(1, 1, Duration.ofDays(30), true);
        checkpoint(1, 2, Duration.ofDays(29), true);

        prune(1, Duration.ofDays(1), Set.of(), identity.jobId(1));

        assertThat(exists(theirs)).isTrue();
    }
}
