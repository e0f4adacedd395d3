package io.streamsplit.boot.test;

import io.streamsplit.boot.job.StreamSplitJob;
import org.springframework.context.SmartLifecycle;

/**
 * Holds the context's startup until every task of the job runs, so a test's first record is read by a
 * running job; a job that cannot start fails the context with the job's own failure.
 */
final class JobRunningBarrier implements SmartLifecycle {

    static final String BEAN_NAME = "streamSplitTestJobRunning";

    private final PipelineTester tester;
    private volatile boolean running;

    JobRunningBarrier(PipelineTester tester) {
        this.tester = tester;
    }

    @Override
    public void start() {
        try {
            tester.awaitJobRunning();
        } catch (AssertionError e) {
            throw new IllegalStateException(
                    "@StreamSplitTest: the job did not start. " + e.getMessage()
                            + " (Set @StreamSplitTest(awaitJob = false) to test a job that is not meant to run.)",
                    e);
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isPauseable() {
        return false; // like the job it waits for
    }

    @Override
    public int getPhase() {
        return StreamSplitJob.PHASE + 1;
    }
}
