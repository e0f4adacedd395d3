package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.sql.SqlPipeline;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Whether {@code streamsplit.sql.statements} gets a pipeline, and what an application without the Table API hears. */
class SqlConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues("streamsplit.kafka.startup-check.mode=off")
            .withConfiguration(AutoConfigurations.of(StreamSplitAutoConfiguration.class))
            .withUserConfiguration(TestDeserializers.OneStringDeserializer.class)
            .withPropertyValues(
                    "streamsplit.kafka.bootstrap-servers=broker-a:9092",
                    "streamsplit.kafka.sources.orders.topics=orders");

    @Test
    void statementsGetAPipelineAndNoStatementsNone() {
        // the job is not submitted here: these contexts have no Kafka (the statements run in SqlPipelineIT)
        runner.withPropertyValues(
                        "streamsplit.flink.enabled=false",
                        "streamsplit.sql.statements.copy=INSERT INTO totals SELECT text FROM orders")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(SqlPipeline.class));
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SqlPipeline.class));
    }

    @Test
    void withoutTheTableApiStatementsFailTheStartNamingTheStarterToAdd() {
        runner.withClassLoader(new FilteredClassLoader(StreamTableEnvironment.class))
                .withPropertyValues("streamsplit.sql.statements.copy=INSERT INTO out SELECT * FROM orders")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = FailureReports.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("streamsplit.sql.statements", "[copy]");
                    assertThat(analysis.getAction()).contains("io.streamsplit:streamsplit-sql-spring-boot-starter");
                });
        runner.withClassLoader(new FilteredClassLoader(StreamTableEnvironment.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SqlPipeline.class));
    }
}
