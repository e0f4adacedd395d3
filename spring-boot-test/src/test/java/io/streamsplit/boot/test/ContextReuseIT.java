package io.streamsplit.boot.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.WordsApplication;
import io.streamsplit.boot.test.app.KitApplication;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.ActiveProfiles;

/**
 * Test classes with the same {@code @StreamSplitTest} share one context, broker and running job, even
 * when a class with another context ran in between: Spring's context cache pauses the context it
 * switches away from, and the job must keep running through that, not be cancelled and started over.
 */
class ContextReuseIT {

    static final List<String> JOB_IDS = new ArrayList<>();
    static final List<String> BROKERS = new ArrayList<>();

    @Test
    void aSecondClassWithTheSameSettingsGetsTheSameRunningJobAfterAContextSwitch() {
        var results = EngineTestKit.engine("junit-jupiter")
                .configurationParameter(
                        "junit.jupiter.testclass.order.default", ClassOrderer.OrderAnnotation.class.getName())
                .selectors(
                        DiscoverySelectors.selectClass(First.class),
                        DiscoverySelectors.selectClass(Other.class),
                        DiscoverySelectors.selectClass(Second.class))
                .execute();

        results.testEvents().assertStatistics(stats -> stats.succeeded(3).failed(0));
        assertThat(JOB_IDS).hasSize(2);
        assertThat(JOB_IDS.get(1)).isEqualTo(JOB_IDS.get(0));
        assertThat(BROKERS.get(1)).isEqualTo(BROKERS.get(0));
    }

    @StreamSplitTest(classes = KitApplication.class, properties = "spring.application.name=reuse")
    @ActiveProfiles("kit")
    abstract static class Shared {
        @Autowired
        PipelineTester pipeline;

        @Test
        void recordsItsJob() {
            JOB_IDS.add(pipeline.awaitJobRunning());
            BROKERS.add(pipeline.bootstrapServers());
            assertThat(pipeline.describeJob()).contains("is RUNNING");
        }
    }

    @Order(1)
    static class First extends Shared {}

    @Order(3)
    static class Second extends Shared {}

    @Order(2)
    @StreamSplitTest(
            classes = WordsApplication.class,
            properties = {
                "spring.application.name=between",
                "streamsplit.kafka.sources.words.topics=between-in",
                "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
                "streamsplit.kafka.sinks.upper.topic=between-out",
                "streamsplit.kafka.sinks.upper.serializer=utf8"
            })
    static class Other {
        @Autowired
        PipelineTester pipeline;

        @Test
        void runsItsOwnJob() {
            pipeline.send("between-in", null, "x");
            assertThat(pipeline.awaitRecords("between-out", 1).get(0).value()).isEqualTo("X");
        }
    }
}
