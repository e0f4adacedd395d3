package io.streamsplit.boot.autoconfigure;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs {@link WordsApplication} for the end-to-end tests. Kept apart from the application class:
 * its Spring-typed signature would stop a Flink cluster from loading the class that defines the job's
 * lambdas (remote mode checks this at startup).
 */
public final class Words {

    private Words() {}

    /**
     * Starts the application without a web server: source {@code words} reads {@code <name>-in},
     * sink {@code upper} writes {@code <name>-out}, parallelism 2, checkpoints every 500 ms;
     * {@code properties} add to or override that.
     */
    public static ConfigurableApplicationContext start(String bootstrapServers, String name, String... properties) {
        return start(new Class<?>[0], bootstrapServers, name, properties);
    }

    /** {@link #start(String, String, String...)} with more configuration classes (e.g. the application's own beans). */
    public static ConfigurableApplicationContext start(
            Class<?>[] configurations, String bootstrapServers, String name, String... properties) {
        return new SpringApplicationBuilder(WordsApplication.class)
                .sources(configurations)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.application.name=" + name,
                        "streamsplit.kafka.embedded.enabled=false",
                        "streamsplit.kafka.bootstrap-servers=" + bootstrapServers,
                        "streamsplit.kafka.sources.words.topics=" + name + "-in",
                        "streamsplit.kafka.sources.words.group-id=" + name,
                        "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
                        "streamsplit.kafka.sinks.upper.topic=" + name + "-out",
                        "streamsplit.kafka.sinks.upper.serializer=utf8",
                        "streamsplit.flink.parallelism=2",
                        "streamsplit.flink.checkpointing.interval=500ms")
                .properties(properties)
                .run();
    }
}
