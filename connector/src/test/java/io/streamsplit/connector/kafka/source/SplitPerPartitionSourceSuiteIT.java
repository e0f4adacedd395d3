package io.streamsplit.connector.kafka.source;

import org.apache.flink.connector.testframe.external.ExternalContextFactory;
import org.apache.flink.connector.testframe.junit.annotations.TestContext;

/** Flink's connector test suite ({@link StreamSplitSourceSuite}) against our source with one split per partition. */
class SplitPerPartitionSourceSuiteIT extends StreamSplitSourceSuite {

    @TestContext
    ExternalContextFactory<StreamSplitSourceExternalContext> splitPerPartition = testName ->
            new StreamSplitSourceExternalContext(kafka.broker, StreamSplitSourceExternalContext.SplitMode.PARTITION);
}
