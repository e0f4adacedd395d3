package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkFactory;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceFactory;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.sql.SqlPipeline;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
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
                KafkaSinkFactory sinks,
                ListableBeanFactory beanFactory) {
            return new SqlPipeline(
                    properties.getSql().getStatements(),
                    sources,
                    // every YAML source is a bean of its name (KafkaSourceBeanRegistrar), as is a source of the app's
                    // own
                    () -> List.of(beanFactory.getBeanNamesForType(StreamSplitKafkaSource.class)),
                    sinks,
                    properties.getKafka().getControlTopic());
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
