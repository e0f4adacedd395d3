package io.streamsplit.boot.test;

import java.util.List;

/**
 * The values of a {@link StreamSplitTest}; equal settings mean one shared application context (and
 * broker), as Spring's context cache compares customizers.
 */
record TestSettings(
        int partitions,
        int parallelism,
        String checkpointInterval,
        List<String> topics,
        StreamSplitTest.Kafka kafka,
        boolean awaitJob) {

    static TestSettings of(StreamSplitTest test) {
        if (test.partitions() < 1) {
            throw new IllegalArgumentException(
                    "@StreamSplitTest(partitions = " + test.partitions() + "): a topic needs at least 1 partition");
        }
        if (test.parallelism() < 1) {
            throw new IllegalArgumentException("@StreamSplitTest(parallelism = " + test.parallelism()
                    + "): the job needs a parallelism of" + " at least 1");
        }
        return new TestSettings(
                test.partitions(),
                test.parallelism(),
                test.checkpointInterval(),
                List.of(test.topics()),
                test.kafka(),
                test.awaitJob());
    }
}
