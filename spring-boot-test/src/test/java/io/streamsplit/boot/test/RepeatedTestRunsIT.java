package io.streamsplit.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.streamsplit.boot.test.app.KitApplication;
import io.streamsplit.boot.test.app.Word;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.util.FileSystemUtils;

/**
 * A test class of an application that keeps its checkpoints ({@code checkpointing.storage} in its own
 * configuration) passes every time it runs, as {@code mvn verify} twice would run it: each test
 * context checkpoints to a directory of its own, so a run never resumes the previous run's job
 * (whose offsets belong to another broker), and the application's directory stays untouched.
 */
class RepeatedTestRunsIT {

    @Test
    void aTestOfAnApplicationWithCheckpointStoragePassesAgainAndAgain() {
        Path applicationStorage = Path.of(System.getProperty("java.io.tmpdir"), "kit-stored-checkpoints");
        FileSystemUtils.deleteRecursively(applicationStorage.toFile());
        for (int run = 1; run <= 2; run++) {
            Events tests = EngineTestKit.engine("junit-jupiter")
                    .selectors(selectClass(StoredCheckpointsCase.class))
                    .execute()
                    .testEvents();
            tests.assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));
        }
        assertThat(Files.exists(applicationStorage))
                .as("the application's own checkpoint directory is not used by tests")
                .isFalse();
    }

    /** Run by the test above, twice; not on its own (its name is not a test's). */
    @StreamSplitTest(classes = KitApplication.class, parallelism = 1, partitions = 1)
    @ActiveProfiles({"kit", "stored"})
    @DirtiesContext
    static class StoredCheckpointsCase {

        @Autowired
        PipelineTester pipeline;

        @Test
        void wordsComeOutUpperCased() {
            pipeline.sendJson("words", null, new Word("again"));
            assertThat(pipeline.awaitRecords(
                            "upper", 1, record -> record.value().equals("AGAIN")))
                    .hasSize(1);
        }
    }
}
