package io.streamsplit.boot.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.test.broken.BrokenApplication;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.springframework.test.context.ActiveProfiles;

/**
 * What a test author sees when the application's job cannot start: the test fails before its first
 * line with the job's own failure, not with a timeout. The failing test classes run through JUnit's
 * engine test kit, so this build stays green while they fail.
 */
class ClearFailuresIT {

    @Test
    void aJobThatCannotStartFailsTheTestWithItsCause() {
        Throwable failure = onlyFailure(JobCannotStart.class);

        String messages = messages(failure);
        assertThat(messages)
                .contains("@StreamSplitTest: the job did not start")
                .contains("Flink job 'kit-app' is FAILED, not running")
                .contains("the price list service at http://prices.invalid is not reachable")
                .contains("@StreamSplitTest(awaitJob = false)");
    }

    @Test
    void aWrongAnnotationValueIsNamed() {
        Throwable failure = onlyFailure(NoPartitions.class);

        assertThat(messages(failure)).contains("@StreamSplitTest(partitions = 0): a topic needs at least 1 partition");
    }

    private static Throwable onlyFailure(Class<?> testClass) {
        List<Event> failed = EngineTestKit.engine("junit-jupiter")
                .selectors(DiscoverySelectors.selectClass(testClass))
                .execute()
                .allEvents()
                .failed()
                .list();
        assertThat(failed).as("failed events of %s", testClass.getSimpleName()).isNotEmpty();
        return failed.get(0)
                .getPayload(TestExecutionResult.class)
                .flatMap(TestExecutionResult::getThrowable)
                .orElseThrow();
    }

    private static String messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        return String.join("\n", messages);
    }

    @StreamSplitTest(classes = BrokenApplication.class, properties = "streamsplit.flink.restart.attempts=1")
    @ActiveProfiles("kit")
    static class JobCannotStart {
        @Test
        void neverRuns() {}
    }

    @StreamSplitTest(classes = BrokenApplication.class, partitions = 0)
    static class NoPartitions {
        @Test
        void neverRuns() {}
    }
}
