package io.streamsplit.boot.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.FlinkMode;
import io.streamsplit.boot.job.state.RunSettings;
import io.streamsplit.boot.job.state.ShutdownJob;
import io.streamsplit.boot.job.state.StateHistory;
import io.streamsplit.boot.job.state.UpgradeMode;
import io.streamsplit.pipeline.PipelineContext;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;

/**
 * The application's job as its context starts and stops it, on a real local Flink cluster: nothing to run is
 * not a failure (unless Flink started the application to run it), a job is submitted after startup, and the
 * application's stop does to it what {@code streamsplit.flink.shutdown.job} says.
 */
class StreamSplitJobTest {

    private final DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    private final StreamExecutionEnvironment environment =
            StreamExecutionEnvironment.createLocalEnvironment(1, new Configuration());
    private StreamSplitJob job;

    @AfterEach
    void stop() {
        if (job != null && job.isRunning()) {
            job.stop();
        }
    }

    @Test
    void aSwitchedOffJobIsNotSubmittedAndThatIsNotAFailure() {
        beans.registerSingleton("endless", endless());
        job = job(settings(false, FlinkMode.EMBEDDED, ShutdownJob.CANCEL));

        job.start();

        assertThat(job.isRunning()).isTrue();
        assertThat(job.hasNothingToRun()).isTrue();
        assertThat(job.submission()).isCompletedExceptionally();
    }

    @Test
    void withoutPipelineBeansThereIsNothingToRun() {
        job = job(settings(true, FlinkMode.EMBEDDED, ShutdownJob.CANCEL));

        job.start();

        assertThat(job.hasNothingToRun()).isTrue();
        assertThat(job.submission()).isCompletedExceptionally();
    }

    @Test
    void anApplicationFlinkStartedToRunItsJobFailsWithoutOne() {
        job = job(settings(true, FlinkMode.APPLICATION, ShutdownJob.KEEP));

        assertThatThrownBy(job::start).isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
            assertThat(e.getProperty()).isEqualTo("streamsplit.flink.mode");
            assertThat(e.getProblem()).contains("it has no pipeline");
        });
    }

    @Test
    void theJobRunsAfterStartupAndTheApplicationsStopCancelsIt() throws Exception {
        beans.registerSingleton("endless", endless());
        job = job(settings(true, FlinkMode.EMBEDDED, ShutdownJob.CANCEL));

        job.start();
        JobClient client = job.submission().get(60, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(60)).until(() -> client.getJobStatus().get() == JobStatus.RUNNING);
        assertThat(job.hasNothingToRun()).isFalse();
        assertThat(job.jobName()).isEqualTo("orders");

        job.stop();

        assertThat(job.isRunning()).isFalse();
        assertThat(client.getJobExecutionResult())
                .as("the run ended as cancelled (the local cluster goes with it)")
                .failsWithin(Duration.ofSeconds(30))
                .withThrowableThat()
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e)).containsIgnoringCase("cancel"));
    }

    private StreamSplitJob job(JobSettings settings) {
        return new StreamSplitJob(
                settings,
                new JobDefinition("orders", new Configuration(), null, null, StateHistory.Limits.DEFAULT),
                environment,
                beans,
                () -> new EnvironmentOnly(environment),
                "the test's local cluster",
                null,
                null,
                null,
                null,
                null);
    }

    private static JobSettings settings(boolean enabled, FlinkMode mode, ShutdownJob onShutdown) {
        return new JobSettings(
                enabled,
                mode,
                onShutdown,
                false,
                false,
                Duration.ofSeconds(5),
                1,
                new RunSettings(UpgradeMode.SAVEPOINT, null, Duration.ofSeconds(30)));
    }

    /** A job that runs until it is stopped. */
    private static StreamSplitPipeline endless() {
        return pipeline -> pipeline.environment()
                .fromSequence(0, Long.MAX_VALUE)
                .sinkTo(new DiscardingSink<>())
                .name("discard");
    }

    /** A context with the environment only: these pipelines read no Kafka. */
    private record EnvironmentOnly(StreamExecutionEnvironment environment) implements PipelineContext {

        @Override
        public <T> DataStream<T> source(String name) {
            throw new UnsupportedOperationException("no sources in this test");
        }

        @Override
        public <T> DataStreamSink<T> sink(String name, DataStream<T> stream) {
            throw new UnsupportedOperationException("no sinks in this test");
        }

        @Override
        public io.streamsplit.pipeline.Step step(String name) {
            throw new UnsupportedOperationException("no steps in this test");
        }
    }
}
