package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.job.StreamSplitJob;
import java.time.Duration;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.core.env.Environment;

/**
 * Gives the job's shutdown phase the time {@code streamsplit.flink.shutdown.timeout} allows it, plus a
 * margin, when that is more than Spring's {@code spring.lifecycle.timeout-per-shutdown-phase} (30 s by
 * default): otherwise Spring would move on while a savepoint is still being taken, and destroy the
 * embedded cluster or leave the cluster's job half-stopped. Only the job's own phase gets the longer
 * wait; the web server's graceful shutdown keeps Boot's.
 */
final class ShutdownPhaseTimeout implements BeanPostProcessor {

    /** Time for what the stop does after its deadline: the last log line, the keeper's poll in flight. */
    static final Duration MARGIN = Duration.ofSeconds(5);

    private final Environment environment;

    ShutdownPhaseTimeout(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof DefaultLifecycleProcessor processor) {
            processor.setTimeoutForShutdownPhase(
                    StreamSplitJob.PHASE, phaseTimeout(environment).toMillis());
        }
        return bean;
    }

    /** The job's phase: the larger of Spring's per-phase timeout and the job's shutdown timeout plus the margin. */
    static Duration phaseTimeout(Environment environment) {
        Binder binder = Binder.get(environment);
        Duration job = binder.bind("streamsplit.flink.shutdown.timeout", Duration.class)
                .orElse(Duration.ofSeconds(30))
                .plus(MARGIN);
        Duration spring = binder.bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
                .orElse(Duration.ofSeconds(30));
        return job.compareTo(spring) > 0 ? job : spring;
    }
}
