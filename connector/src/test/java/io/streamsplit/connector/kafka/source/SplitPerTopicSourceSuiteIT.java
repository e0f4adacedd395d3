package io.streamsplit.connector.kafka.source;

import org.apache.flink.connector.testframe.external.ExternalContextFactory;
import org.apache.flink.connector.testframe.junit.annotations.TestContext;

/** Flink's connector test suite ({@link StreamSplitSourceSuite}) against our source with one split per topic. */
class SplitPerTopicSourceSuiteIT extends StreamSplitSourceSuite {

    @TestContext
    ExternalContextFactory<StreamSplitSourceExternalContext> splitPerTopic = testName ->
            new StreamSplitSourceExternalContext(kafka.broker, StreamSplitSourceExternalContext.SplitMode.TOPIC);
}
