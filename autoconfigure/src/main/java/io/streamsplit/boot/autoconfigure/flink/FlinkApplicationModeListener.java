package io.streamsplit.boot.autoconfigure.flink;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.context.event.SpringApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * When Flink starts the application (application mode), sets what a process owned by Flink needs
 * before Spring Boot sets anything up: Flink's JobManager owns logging (its log4j configuration, its
 * log files: Spring Boot's logging system stays out, else Logback would fight Flink's binding), no
 * web server unless the application asks for one ({@code spring.main.web-application-type}), no JVM
 * shutdown hook (Flink owns the JVM's end, and has closed the application's class loader by then),
 * and {@code streamsplit.flink.mode=application} unless set. Each is a default the application's own
 * configuration overrides.
 */
public final class FlinkApplicationModeListener implements ApplicationListener<SpringApplicationEvent>, Ordered {

    static final String LOGGING_SYSTEM = "org.springframework.boot.logging.LoggingSystem";

    /** Decided once per application start (a listener instance belongs to one SpringApplication). */
    private @Nullable Boolean runByFlink;

    @Override
    public void onApplicationEvent(SpringApplicationEvent event) {
        if (!(event instanceof ApplicationStartingEvent || event instanceof ApplicationEnvironmentPreparedEvent)
                || !runByFlink(event)) {
            return;
        }
        if (event instanceof ApplicationStartingEvent && System.getProperty(LOGGING_SYSTEM) == null) {
            System.setProperty(LOGGING_SYSTEM, "none");
        }
        if (event instanceof ApplicationEnvironmentPreparedEvent prepared) {
            ConfigurableEnvironment environment = prepared.getEnvironment();
            Map<String, Object> defaults = new LinkedHashMap<>();
            defaults.put("streamsplit.flink.mode", "application");
            defaults.put("spring.main.web-application-type", "none");
            // Flink ends the JobManager's JVM after it has closed the application's class loader: a
            // shutdown hook closing the context then fails to load the classes its close needs
            defaults.put("spring.main.register-shutdown-hook", "false");
            environment
                    .getPropertySources()
                    .addLast(new MapPropertySource("streamsplit-flink-application-mode", defaults));
        }
    }

    private boolean runByFlink(SpringApplicationEvent event) {
        if (runByFlink == null) {
            ClassLoader loader = event.getSpringApplication().getClassLoader();
            runByFlink = ClassUtils.isPresent("org.apache.flink.client.program.StreamContextEnvironment", loader)
                    && FlinkApplicationMode.isRunByFlink();
        }
        return runByFlink;
    }

    @Override
    public int getOrder() {
        // before Spring Boot's logging listener picks its logging system
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
