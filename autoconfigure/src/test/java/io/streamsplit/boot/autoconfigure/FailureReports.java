package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import java.util.List;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.mock.env.MockEnvironment;

/** The report Spring Boot prints for a startup failure, through the failure analyzers in spring.factories. */
public final class FailureReports {

    private FailureReports() {}

    /** The configuration problem that caused {@code failure}: the exception that names property, value and fix. */
    public static InvalidStreamSplitConfigurationException configurationFailure(Throwable failure) {
        Throwable cause = failure;
        while (cause != null && !(cause instanceof InvalidStreamSplitConfigurationException)) {
            cause = cause.getCause();
        }
        if (cause == null) {
            throw new AssertionError("not a configuration problem: " + failure, failure);
        }
        return (InvalidStreamSplitConfigurationException) cause;
    }

    public static FailureAnalysis analyze(Throwable failure) {
        return analyze(failure, new MockEnvironment());
    }

    public static FailureAnalysis analyze(Throwable failure, Environment environment) {
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
                .load(
                        FailureAnalyzer.class,
                        ArgumentResolver.of(Environment.class, environment)
                                .and(BeanFactory.class, new DefaultListableBeanFactory()),
                        // like Boot itself: skip analyzers for technologies not on the classpath (web)
                        SpringFactoriesLoader.FailureHandler.logging(LogFactory.getLog(FailureReports.class)));
        for (FailureAnalyzer analyzer : analyzers) {
            FailureAnalysis analysis = analyzer.analyze(failure);
            if (analysis != null) {
                return analysis;
            }
        }
        return null;
    }
}
