package io.streamsplit.boot.autoconfigure.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** {@code streamsplit.kafka.*}: the connection every source and sink shares, and the named sources and sinks. */
public class StreamSplitKafkaProperties {

    /** Kafka bootstrap servers for all sources and sinks. Unset: Spring Boot's Kafka settings (spring.kafka.bootstrap-servers, a @ServiceConnection), then the dev-mode embedded broker. */
    private List<String> bootstrapServers = new ArrayList<>();

    /** Kafka client properties for all sources (consumer) and sinks (producer), e.g. security settings. */
    private Map<String, String> properties = new LinkedHashMap<>();

    /**
     * Name of a Spring Boot SSL bundle (spring.ssl.bundle.*) for all Kafka clients; its trust and key
     * material travel with the Flink job as PEM client properties. Unset: spring.kafka.ssl.bundle.
     */
    private @Nullable String sslBundle;

    /**
     * Whether to check at startup, when the clients use SASL or TLS, that Kafka accepts their
     * credentials and grants what each source and sink needs (DESCRIBE/READ on topics and group,
     * WRITE on sink topics), so a missing ACL fails startup with the permission to grant.
     */
    private boolean verifyAccess = true;

    /**
     * A compacted Kafka topic from which every source of this app takes pause, resume and rate
     * commands while the job runs (written by the streamsplit Actuator endpoint, keyed by source
     * name; created at startup when missing). Unset: sources cannot be paused or re-throttled.
     */
    private @Nullable String controlTopic;

    /** Named Kafka sources; each is also a StreamSplitKafkaSource bean of that name. */
    private Map<String, KafkaSourceProperties> sources = new LinkedHashMap<>();

    /** Named Kafka sinks, written with Flink's KafkaSink. */
    private Map<String, KafkaSinkProperties> sinks = new LinkedHashMap<>();

    /** Dev mode: an in-JVM Kafka broker when no Kafka is configured and streamsplit-embedded-kafka is on the classpath. */
    private final Embedded embedded = new Embedded();

    /** The check at startup that every source's and sink's Kafka answers and its topics exist. */
    private final StartupCheck startupCheck = new StartupCheck();

    /** Sink and dead-letter topics StreamSplit creates at startup when they do not exist. */
    private final CreateTopics createTopics = new CreateTopics();

    /** The schema registry of format avro-confluent (Confluent's REST API: Confluent, Apicurio, Karapace, Redpanda). */
    private final SchemaRegistry schemaRegistry = new SchemaRegistry();

    public List<String> getBootstrapServers() {
        return bootstrapServers;
    }

    public void setBootstrapServers(List<String> bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    public Map<String, String> getProperties() {
        return properties;
    }

    public void setProperties(Map<String, String> properties) {
        this.properties = properties;
    }

    public @Nullable String getSslBundle() {
        return sslBundle;
    }

    public void setSslBundle(@Nullable String sslBundle) {
        this.sslBundle = sslBundle;
    }

    public boolean isVerifyAccess() {
        return verifyAccess;
    }

    public void setVerifyAccess(boolean verifyAccess) {
        this.verifyAccess = verifyAccess;
    }

    public @Nullable String getControlTopic() {
        return controlTopic;
    }

    public void setControlTopic(@Nullable String controlTopic) {
        this.controlTopic = controlTopic;
    }

    public Map<String, KafkaSourceProperties> getSources() {
        return sources;
    }

    public void setSources(Map<String, KafkaSourceProperties> sources) {
        this.sources = sources;
    }

    public Map<String, KafkaSinkProperties> getSinks() {
        return sinks;
    }

    public void setSinks(Map<String, KafkaSinkProperties> sinks) {
        this.sinks = sinks;
    }

    public Embedded getEmbedded() {
        return embedded;
    }

    public StartupCheck getStartupCheck() {
        return startupCheck;
    }

    /** Every topic the configuration names: the sources' topics and dead-letter topics, the sinks' topics. */
    public Set<String> namedTopics() {
        Set<String> topics = new LinkedHashSet<>();
        sources.values().forEach(source -> {
            topics.addAll(source.getTopics());
            if (source.getDeadLetterTopic() != null) {
                topics.add(source.getDeadLetterTopic());
            }
        });
        sinks.values().forEach(sink -> {
            if (sink.getTopic() != null && !sink.getTopic().isBlank()) {
                topics.add(sink.getTopic());
            }
        });
        return topics;
    }

    public CreateTopics getCreateTopics() {
        return createTopics;
    }

    public SchemaRegistry getSchemaRegistry() {
        return schemaRegistry;
    }

    /** {@code streamsplit.kafka.schema-registry.*}. */
    public static class SchemaRegistry {

        /** Base URL of the registry, or several separated by commas, e.g. http://registry:8081. */
        private @Nullable String url;

        /** User of HTTP basic authentication (with password). */
        private @Nullable String username;

        /** Password of HTTP basic authentication. */
        private @Nullable String password;

        /** Name of a Spring Boot SSL bundle (spring.ssl.bundle.*) whose trust store holds the registry's certificate. */
        private @Nullable String sslBundle;

        /** Whether sinks register their schema under the topic's subject (topic-value); false: it must be registered already. */
        private boolean autoRegister = true;

        public @Nullable String getUrl() {
            return url;
        }

        public void setUrl(@Nullable String url) {
            this.url = url;
        }

        public @Nullable String getUsername() {
            return username;
        }

        public void setUsername(@Nullable String username) {
            this.username = username;
        }

        public @Nullable String getPassword() {
            return password;
        }

        public void setPassword(@Nullable String password) {
            this.password = password;
        }

        public @Nullable String getSslBundle() {
            return sslBundle;
        }

        public void setSslBundle(@Nullable String sslBundle) {
            this.sslBundle = sslBundle;
        }

        public boolean isAutoRegister() {
            return autoRegister;
        }

        public void setAutoRegister(boolean autoRegister) {
            this.autoRegister = autoRegister;
        }
    }

    /** What the startup check does with a problem it finds. */
    public enum StartupCheckMode {
        /** Fail startup with a report naming the property, the value and the fix. */
        FAIL,
        /** Log each problem and start anyway; health reports them until the job makes progress. */
        WARN,
        /** Do not check. */
        OFF
    }

    /** Startup check settings. */
    public static class StartupCheck {

        /** fail: stop startup on a problem; warn: log it and start anyway (health reports it); off: no check. */
        private StartupCheckMode mode = StartupCheckMode.FAIL;

        /**
         * How long a Kafka cluster has to answer the check: long enough for a broker that is slow to answer
         * while it (or the machine) starts. An address where nothing listens fails at once, whatever this is.
         */
        private Duration timeout = Duration.ofSeconds(30);

        public StartupCheckMode getMode() {
            return mode;
        }

        public void setMode(StartupCheckMode mode) {
            this.mode = mode;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** Topic creation settings. */
    public static class CreateTopics {

        /** Whether to create sink and dead-letter topics that do not exist (source topics are never created). */
        private boolean enabled = false;

        /** Partitions of a created topic. Unset: the broker's num.partitions. */
        private @Nullable Integer partitions;

        /** Replication factor of a created topic. Unset: the broker's default.replication.factor. */
        private @Nullable Short replicationFactor;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public @Nullable Integer getPartitions() {
            return partitions;
        }

        public void setPartitions(@Nullable Integer partitions) {
            this.partitions = partitions;
        }

        public @Nullable Short getReplicationFactor() {
            return replicationFactor;
        }

        public void setReplicationFactor(@Nullable Short replicationFactor) {
            this.replicationFactor = replicationFactor;
        }
    }

    /** Dev-mode broker settings. */
    public static class Embedded {

        /**
         * Whether to start the in-JVM broker (streamsplit-embedded-kafka on the class path) when no bootstrap
         * servers are configured anywhere. Unset: only in a development run (the application's classes loaded
         * from a directory: the IDE, mvn spring-boot:run, tests), never in a packaged one (java -jar), as
         * Spring Boot's devtools do.
         */
        private @Nullable Boolean enabled;

        /** Fixed broker port. Unset: a free port. */
        private @Nullable Integer port;

        /** Partitions of the topics the dev broker creates for the configured sources and sinks. */
        private int partitions = 3;

        public @Nullable Boolean getEnabled() {
            return enabled;
        }

        public void setEnabled(@Nullable Boolean enabled) {
            this.enabled = enabled;
        }

        public @Nullable Integer getPort() {
            return port;
        }

        public void setPort(@Nullable Integer port) {
            this.port = port;
        }

        public int getPartitions() {
            return partitions;
        }

        public void setPartitions(int partitions) {
            this.partitions = partitions;
        }
    }
}
