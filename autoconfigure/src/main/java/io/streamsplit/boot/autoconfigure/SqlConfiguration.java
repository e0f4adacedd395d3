package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.diagnostics.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceFactory;
import io.streamsplit.boot.sql.SqlPipeline;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * {@code streamsplit.sql.statements}: with Flink's Table API on the classpath, a {@link SqlPipeline} bean runs
 * them as part of the job; without it, the start fails saying which dependency to add.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(SqlConfiguration.StatementsConfigured.class)
class SqlConfiguration {

    static final String STATEMENTS = "streamsplit.sql.statements";

    private static final String TABLE_ENVIRONMENT = "org.apache.flink.table.api.bridge.java.StreamTableEnvironment";

    private static final String SQL_MODULE = "io.streamsplit.connector.kafka.table.RowFields";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {TABLE_ENVIRONMENT, SQL_MODULE})
    static class WithTableApi {

        @Bean
        @ConditionalOnMissingBean(SqlPipeline.class)
        SqlPipeline streamSplitSqlPipeline(
                StreamSplitProperties properties,
                KafkaSourceFactory sources,
                ListableBeanFactory beanFactory,
                Environment environment) {
            Map<String, String> statements = properties.getSql().getStatements();
            Map<String, String> origins = new LinkedHashMap<>();
            statements.keySet().forEach(name -> {
                String origin = origin(environment, name);
                if (origin != null) {
                    origins.put(name, origin);
                }
            });
            return new SqlPipeline(
                    statements,
                    origins,
                    sources,
                    () -> {
                        Set<String> names = new LinkedHashSet<>(sources.names());
                        names.addAll(Arrays.asList(beanFactory.getBeanNamesForType(StreamSplitKafkaSource.class)));
                        return List.copyOf(names);
                    },
                    properties.getKafka().getSinks());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(TableApiMissing.class)
    static class WithoutTableApi {

        @Bean
        Object streamSplitSqlNeedsTheTableApi(StreamSplitProperties properties) {
            throw new InvalidStreamSplitConfigurationException(
                    STATEMENTS,
                    properties.getSql().getStatements().keySet(),
                    "SQL statements are configured, but Flink's Table API and StreamSplit's SQL module are not on the"
                            + " classpath",
                    "Add io.streamsplit:streamsplit-sql-spring-boot-starter (it brings flink-table-api-java-bridge,"
                            + " the planner and streamsplit-table), or remove " + STATEMENTS + ".");
        }
    }

    /** Where statement {@code name} is defined, as Spring Boot tells it ("class path resource [application.yml] - 12:5"). */
    private static @Nullable String origin(Environment environment, String name) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return null;
        }
        try {
            ConfigurationPropertyName key =
                    ConfigurationPropertyName.of(STATEMENTS).append("[" + name + "]");
            for (var source : ConfigurationPropertySources.get(configurable)) {
                ConfigurationProperty property = source.getConfigurationProperty(key);
                if (property != null && property.getOrigin() != null) {
                    return property.getOrigin().toString();
                }
            }
        } catch (RuntimeException notAPropertyName) {
            // a name Spring Boot cannot look up: the message goes without the place
        }
        return null;
    }

    /** Statements are configured: a non-empty {@code streamsplit.sql.statements}. */
    static final class StatementsConfigured extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Map<String, String> statements = Binder.get(context.getEnvironment())
                    .bind(STATEMENTS, Bindable.mapOf(String.class, String.class))
                    .orElse(Map.of());
            return statements.isEmpty()
                    ? ConditionOutcome.noMatch("no " + STATEMENTS)
                    : ConditionOutcome.match(STATEMENTS + " " + statements.keySet());
        }
    }

    /** Flink's Table API or StreamSplit's SQL module is not on the classpath. */
    static final class TableApiMissing extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ClassLoader loader = context.getClassLoader();
            boolean present =
                    ClassUtils.isPresent(TABLE_ENVIRONMENT, loader) && ClassUtils.isPresent(SQL_MODULE, loader);
            return present
                    ? ConditionOutcome.noMatch("the Table API and streamsplit-table are present")
                    : ConditionOutcome.match("the Table API or streamsplit-table is missing");
        }
    }
}
