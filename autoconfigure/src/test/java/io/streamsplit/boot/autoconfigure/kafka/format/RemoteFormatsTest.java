package io.streamsplit.boot.autoconfigure.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import io.streamsplit.boot.autoconfigure.kafka.format.proto.Transfer;
import io.streamsplit.boot.flink.remote.ClusterClasses;
import io.streamsplit.connector.kafka.format.JsonFormat;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.json.JsonMapper;

/**
 * Remote mode: every format passes the check that what travels loads on a Flink cluster without
 * Spring, and the application's JsonMapper travels without Spring Boot's own modules but with its
 * settings.
 */
class RemoteFormatsTest {

    public record Order(String orderId, long cents) {}

    private final ApplicationContextRunner remote = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(JacksonAutoConfiguration.class, StreamSplitAutoConfiguration.class))
            .withPropertyValues(
                    "spring.jackson.property-naming-strategy=SNAKE_CASE",
                    "streamsplit.kafka.startup-check.mode=off",
                    "streamsplit.kafka.bootstrap-servers=b:1",
                    "streamsplit.kafka.embedded.enabled=false",
                    "streamsplit.flink.mode=remote",
                    "streamsplit.flink.remote.host=localhost",
                    "streamsplit.flink.remote.port=1",
                    "streamsplit.kafka.sources.json.topics=a",
                    "streamsplit.kafka.sources.json.format=json",
                    "streamsplit.kafka.sources.json.type=" + Order.class.getName(),
                    "streamsplit.kafka.sources.avro.topics=b",
                    "streamsplit.kafka.sources.avro.format=avro",
                    "streamsplit.kafka.sources.avro.type=" + Payment.class.getName(),
                    "streamsplit.kafka.sources.generic.topics=c",
                    "streamsplit.kafka.sources.generic.format=avro",
                    "streamsplit.kafka.sources.generic.schema=classpath:avro/payment.avsc",
                    "streamsplit.kafka.sources.text.topics=d",
                    "streamsplit.kafka.sources.text.format=string",
                    "streamsplit.kafka.sources.text.key-format=bytes",
                    "streamsplit.kafka.sources.proto.topics=f",
                    "streamsplit.kafka.sources.proto.format=protobuf",
                    "streamsplit.kafka.sources.proto.type=" + Transfer.class.getName(),
                    "streamsplit.kafka.sources.confluent.topics=g",
                    "streamsplit.kafka.sources.confluent.format=avro-confluent",
                    "streamsplit.kafka.sources.confluent.type=" + Payment.class.getName(),
                    "streamsplit.kafka.schema-registry.url=http://registry:8081",
                    "streamsplit.kafka.sources.raw.topics=e",
                    "streamsplit.kafka.sources.raw.format=bytes",
                    "streamsplit.kafka.sinks.out.topic=out",
                    "streamsplit.kafka.sinks.out.format=avro",
                    "streamsplit.kafka.sinks.out.schema=classpath:avro/payment.avsc");

    @Test
    void everyFormatLoadsOnTheClusterAndTheMapperKeepsItsSettingsWithoutSpringModules() {
        remote.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeansOfType(StreamSplitKafkaSource.class))
                    .containsOnlyKeys("json", "avro", "generic", "text", "raw", "proto", "confluent");
            ClusterClasses cluster = context.getBean(ClusterClasses.class);
            JsonMapper application = context.getBean(JsonMapper.class);
            assertThat(cluster.missingFor(application))
                    .as("Spring Boot's mapper has Spring's own modules, which the cluster does not have")
                    .isNotNull();

            JsonMapper travelling = JsonSchemas.travelling(application, cluster);

            assertThat(travelling).isNotNull();
            assertThat(cluster.missingFor(travelling)).isNull();
            JsonFormat<Order> format = JsonFormat.of(Order.class, travelling);
            assertThat(new String(format.serialize(new Order("o-1", 5)), StandardCharsets.UTF_8))
                    .contains("\"order_id\":\"o-1\"");
        });
    }
}
