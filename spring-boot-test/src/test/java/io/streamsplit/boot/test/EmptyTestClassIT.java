package io.streamsplit.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.test.app.KitApplication;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.ActiveProfiles;

/**
 * What an otherwise empty {@code @StreamSplitTest} class gets before its first line runs: the job
 * running with every task, all of the application's topics created with the annotation's partitions
 * and empty. Its time in the test report is the price of one test context (broker, context, job).
 */
@StreamSplitTest(classes = KitApplication.class, parallelism = 1, partitions = 1)
@ActiveProfiles("kit")
class EmptyTestClassIT {

    @Autowired
    PipelineTester pipeline;

    @Test
    void theJobRunsAndEveryTopicExistsBeforeTheFirstLine() {
        assertThat(pipeline.describeJob()).contains("is RUNNING");
        for (String topic : new String[] {"words", "words.DLT", "clicks", "upper", "click-counts"}) {
            assertThat(pipeline.read(topic)).as("topic %s", topic).isEmpty();
        }
        // the split endpoint's numbers come from metrics that report once a second
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() ->
                        assertThat(pipeline.splits("words").assignedSplits()).isEqualTo(1));
    }
}
