package io.streamsplit.boot.autoconfigure;

import io.streamsplit.boot.autoconfigure.flink.FlinkProperties;
import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import io.streamsplit.boot.autoconfigure.step.ProcessingErrorsProperties;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The {@code streamsplit.*} tree: Kafka sources and sinks by name, and the Flink runtime.
 *
 * <pre>
 * streamsplit:
 *   kafka:
 *     sources:
 *       orders: { topics: orders, group-id: order-totals, deserializer: orderDeserializer }
 *     sinks:
 *       totals: { topic: customer-totals, delivery-guarantee: at-least-once }
 *   flink:
 *     parallelism: 2
 *     checkpointing.interval: 10s
 * </pre>
 */
@ConfigurationProperties("streamsplit")
public class StreamSplitProperties {

    /** Kafka connection, sources and sinks. */
    @NestedConfigurationProperty
    private final StreamSplitKafkaProperties kafka = new StreamSplitKafkaProperties();

    /** The Flink runtime the pipelines run on. */
    @NestedConfigurationProperty
    private final FlinkProperties flink = new FlinkProperties();

    /** The Actuator health indicator of the job. */
    private final Health health = new Health();

    /** What the pipelines' steps (pipeline.step(name)) do with a record their code throws for. */
    @NestedConfigurationProperty
    private final ProcessingErrorsProperties processingErrors = new ProcessingErrorsProperties();

    public ProcessingErrorsProperties getProcessingErrors() {
        return processingErrors;
    }

    /** Lineage of the job beyond what Flink's lineage interface and the endpoint show. */
    private final Lineage lineage = new Lineage();

    public Lineage getLineage() {
        return lineage;
    }

    /** Lineage settings. */
    public static class Lineage {

        /** OpenLineage run events of the job, sent by the application (needs io.openlineage:openlineage-java). */
        private final OpenLineage openlineage = new OpenLineage();

        public OpenLineage getOpenlineage() {
            return openlineage;
        }

        /** Where OpenLineage events go; unset: none are sent. */
        public static class OpenLineage {

            /** console, file or http; unset: no OpenLineage events. */
            private @Nullable OpenLineageTransport transport;

            /** The file each event is appended to as a line of JSON (transport file). */
            private @Nullable String location;

            /** The lineage server's base URL, e.g. http://marquez:5000 (transport http). */
            private @Nullable String url;

            /** The path events are posted to on the server (transport http). */
            private String endpoint = "/api/v1/lineage";

            /** The namespace of the job in the events. */
            private String namespace = "streamsplit";

            public @Nullable OpenLineageTransport getTransport() {
                return transport;
            }

            public void setTransport(@Nullable OpenLineageTransport transport) {
                this.transport = transport;
            }

            public @Nullable String getLocation() {
                return location;
            }

            public void setLocation(@Nullable String location) {
                this.location = location;
            }

            public @Nullable String getUrl() {
                return url;
            }

            public void setUrl(@Nullable String url) {
                this.url = url;
            }

            public String getEndpoint() {
                return endpoint;
            }

            public void setEndpoint(String endpoint) {
                this.endpoint = endpoint;
            }

            public String getNamespace() {
                return namespace;
            }

            public void setNamespace(String namespace) {
                this.namespace = namespace;
            }
        }

        /** How OpenLineage events are sent. */
        public enum OpenLineageTransport {
            /** To the application's log (standard out), one JSON event a line. */
            CONSOLE,
            /** Appended to {@code location}, one JSON event a line. */
            FILE,
            /** Posted to {@code url} + {@code endpoint}. */
            HTTP
        }
    }

    /** Flink SQL statements run as part of the job; the YAML sources and sinks are their tables. */
    private final Sql sql = new Sql();

    public Sql getSql() {
        return sql;
    }

    /** SQL settings. */
    public static class Sql {

        /**
         * Statements by name, run in order as part of the job: INSERT INTO a sink (a YAML sink, or a table a
         * CREATE TABLE statement declares), CREATE VIEW, CREATE TABLE, CREATE FUNCTION. Needs Flink's Table
         * API and planner on the classpath (streamsplit-sql-spring-boot-starter).
         */
        private Map<String, String> statements = new LinkedHashMap<>();

        public Map<String, String> getStatements() {
            return statements;
        }

        public void setStatements(Map<String, String> statements) {
            this.statements = statements;
        }
    }

    public Health getHealth() {
        return health;
    }

    /** Health indicator settings. */
    public static class Health {

        /**
         * How long, on top of one checkpoint interval, a job may take from submission to its first
         * completed checkpoint; past it, a job without one is DOWN.
         */
        private Duration startupGrace = Duration.ofSeconds(30);

        /** The job is DOWN when no checkpoint completed for this long. Unset: five checkpoint intervals, at least one minute. */
        private @Nullable Duration maxCheckpointAge;

        /**
         * How long the Flink cluster (remote mode) may not answer before the job is DOWN: the application can
         * neither see nor keep its job meanwhile.
         */
        private Duration unreachableGrace = Duration.ofSeconds(30);

        /**
         * Records a source may be behind its topics' ends (its lag, all partitions) before the job is OUT_OF_SERVICE:
         * the instance leaves a readiness probe's rotation while it catches up. Unset: lag does not count.
         */
        private @Nullable Long maxLag;

        public @Nullable Long getMaxLag() {
            return maxLag;
        }

        public void setMaxLag(@Nullable Long maxLag) {
            this.maxLag = maxLag;
        }

        public Duration getUnreachableGrace() {
            return unreachableGrace;
        }

        public void setUnreachableGrace(Duration unreachableGrace) {
            this.unreachableGrace = unreachableGrace;
        }

        public Duration getStartupGrace() {
            return startupGrace;
        }

        public void setStartupGrace(Duration startupGrace) {
            this.startupGrace = startupGrace;
        }

        public @Nullable Duration getMaxCheckpointAge() {
            return maxCheckpointAge;
        }

        public void setMaxCheckpointAge(@Nullable Duration maxCheckpointAge) {
            this.maxCheckpointAge = maxCheckpointAge;
        }
    }

    public StreamSplitKafkaProperties getKafka() {
        return kafka;
    }

    public FlinkProperties getFlink() {
        return flink;
    }
}
