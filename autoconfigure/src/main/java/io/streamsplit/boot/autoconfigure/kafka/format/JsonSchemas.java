package io.streamsplit.boot.autoconfigure.kafka.format;

import io.streamsplit.boot.flink.remote.ClusterClasses;
import io.streamsplit.connector.kafka.format.JsonFormat;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link JsonFormat}s with the application's {@link JsonMapper} (Spring Boot's, with its modules and
 * {@code spring.jackson.*} settings) when it can travel with the job: its configuration is
 * Java-serialized into every format. In remote mode, modules whose classes the Flink cluster lacks
 * (Spring Boot's own {@code @JacksonComponent} module, for one) stay behind and the rest of the
 * configuration goes. A mapper that cannot travel at all gives way to Jackson's defaults, said once
 * in the log. Only loaded when a source or sink uses {@code format: json}.
 */
final class JsonSchemas {

    private static final Logger LOG = LoggerFactory.getLogger(JsonSchemas.class);

    private static final int MAX_MIXINS_DROPPED = 16;

    private final @Nullable JsonMapper mapper;

    JsonSchemas(ListableBeanFactory beanFactory, Supplier<@Nullable ClusterClasses> cluster) {
        this.mapper = travelling(beanFactory.getBeanProvider(JsonMapper.class).getIfUnique(), cluster.get());
    }

    JsonFormat<?> format(Class<?> type) {
        return mapper == null ? JsonFormat.of(type) : JsonFormat.of(type, mapper);
    }

    /** The mapper the job gets: the application's, the part of it the cluster can load, or none. */
    static @Nullable JsonMapper travelling(@Nullable JsonMapper application, @Nullable ClusterClasses cluster) {
        if (application == null) {
            LOG.debug("No single JsonMapper bean: format json uses Jackson's defaults");
            return null;
        }
        try {
            JsonFormat.of(Object.class, application);
        } catch (IllegalArgumentException e) {
            LOG.warn(
                    "format json: the application's JsonMapper cannot travel with the Flink job ({}); the job's"
                            + " JSON uses Jackson's defaults instead of its settings. Give it serializable modules"
                            + " (a SimpleModule is) to use them in the job.",
                    e.getCause() == null ? e.getMessage() : e.getCause().toString());
            return null;
        }
        if (cluster == null) {
            return application;
        }
        ClusterClasses.Missing missing = cluster.missingFor(application);
        if (missing == null) {
            return application;
        }
        List<JacksonModule> kept = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (JacksonModule module : application.registeredModules()) {
            if (cluster.missingFor(module) == null) {
                kept.add(module);
            } else {
                dropped.add(module.getModuleName());
            }
        }
        // mix-ins for classes the cluster lacks (Spring's ProblemDetail, for one) go too, one at a time
        Set<Class<?>> mixInsDropped = new LinkedHashSet<>();
        JsonMapper trimmed = without(application, kept, mixInsDropped);
        ClusterClasses.Missing stillMissing = cluster.missingFor(trimmed);
        while (stillMissing != null && mixInsDropped.size() < MAX_MIXINS_DROPPED) {
            Class<?> target = mixInTarget(application, stillMissing.className());
            if (target == null || !mixInsDropped.add(target)) {
                break;
            }
            dropped.add("the mix-in for " + target.getName());
            trimmed = without(application, kept, mixInsDropped);
            stillMissing = cluster.missingFor(trimmed);
        }
        if (stillMissing == null) {
            LOG.info(
                    "format json: the job's JsonMapper is the application's without {}: they need classes the"
                            + " Flink cluster does not have ({})",
                    dropped,
                    missing);
            return trimmed;
        }
        LOG.warn(
                "format json: the application's JsonMapper needs classes the Flink cluster does not have ({}); the"
                        + " job's JSON uses Jackson's defaults instead of its settings. Ship the library with"
                        + " streamsplit.flink.remote.jars to use them.",
                stillMissing);
        return null;
    }

    /** The application's mapper with only the {@code kept} modules and without the mix-ins of {@code mixInTargets}. */
    private static JsonMapper without(JsonMapper application, List<JacksonModule> kept, Set<Class<?>> mixInTargets) {
        JsonMapper.Builder builder = application.rebuild().removeAllModules().addModules(kept);
        mixInTargets.forEach(builder::removeMixIn);
        if (!mixInTargets.isEmpty() && builder.mixInHandler().localSize() == mixInTargets.size()) {
            // removeMixIn keeps each class as a key (mapped to no mix-in), and the key would travel too
            builder.mixInHandler().clearLocalDefinitions(Map.of());
        }
        return builder.build();
    }

    /** The class whose mix-in needs {@code className}: that class itself when it has one. */
    private static @Nullable Class<?> mixInTarget(JsonMapper application, String className) {
        try {
            Class<?> type = Class.forName(className, false, JsonSchemas.class.getClassLoader());
            return application.serializationConfig().findMixInClassFor(type) != null ? type : null;
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
