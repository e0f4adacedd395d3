package io.streamsplit.boot.test;

import io.streamsplit.boot.autoconfigure.kafka.StreamSplitKafkaProperties;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.support.TestPropertySourceUtils;
import org.springframework.util.FileSystemUtils;

/**
 * Prepares one {@link StreamSplitTest} context: starts its broker (embedded mode), points every source
 * and sink at it, sets the test defaults just below the test's own properties, and registers the
 * {@link PipelineTester} (first, so it creates the application's topics before the Kafka startup check runs).
 */
final class StreamSplitTestContextCustomizer implements ContextCustomizer {

    static final String PROPERTY_SOURCE = "streamsplit-test";
    private static final String BROKER_BEAN = "streamSplitTestKafkaBroker";
    private static final String STORAGE = "streamsplit.flink.checkpointing.storage";

    private final TestSettings settings;

    StreamSplitTestContextCustomizer(TestSettings settings) {
        this.settings = settings;
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
        ConfigurableEnvironment environment = context.getEnvironment();
        DefaultListableBeanFactory beanFactory = (DefaultListableBeanFactory) context.getBeanFactory();
        Map<String, Object> defaults = new LinkedHashMap<>();
        defaults.put("streamsplit.flink.mode", "embedded");
        defaults.put("streamsplit.flink.parallelism", settings.parallelism());
        defaults.put("streamsplit.flink.checkpointing.interval", settings.checkpointInterval());
        // a job that cannot run fails the test in seconds (10 attempts, 200 ms apart) instead of backing off
        // as the application's default (exponential-delay) would until the job wait times out
        defaults.put("streamsplit.flink.restart.strategy", "fixed-delay");
        defaults.put("streamsplit.flink.restart.delay", "200ms");
        // a test is one instance: its cached contexts (each its own job) must not elect one of them to run
        defaults.put("streamsplit.flink.embedded.replicas.election", "false");
        EmbeddedKafkaBroker broker = null;
        if (settings.kafka() == StreamSplitTest.Kafka.EMBEDDED) {
            broker = EmbeddedKafkaBroker.builder()
                    // tests send records with explicit (often old) timestamps: time-based retention must not
                    // delete them before the job reads them
                    .brokerProperty("log.retention.ms", "-1")
                    .build()
                    .start();
            EmbeddedKafkaBroker started = broker;
            beanFactory.registerSingleton(BROKER_BEAN, started);
            beanFactory.registerDisposableBean(BROKER_BEAN, started::close);
            pointEverythingAt(started.bootstrapServers(), environment, defaults);
        }
        isolateCheckpoints(environment, beanFactory, defaults);
        addBelowTestProperties(environment.getPropertySources(), new MapPropertySource(PROPERTY_SOURCE, defaults));
        @Nullable EmbeddedKafkaBroker testBroker = broker;
        beanFactory.registerBeanDefinition(
                PipelineTester.BEAN_NAME,
                BeanDefinitionBuilder.genericBeanDefinition(
                                PipelineTester.class, () -> new PipelineTester(beanFactory, settings, testBroker))
                        .getBeanDefinition());
        if (settings.awaitJob()) {
            beanFactory.registerBeanDefinition(
                    JobRunningBarrier.BEAN_NAME,
                    BeanDefinitionBuilder.genericBeanDefinition(
                                    JobRunningBarrier.class,
                                    () -> new JobRunningBarrier(beanFactory.getBean(PipelineTester.class)))
                            .getBeanDefinition());
        }
    }

    /**
     * An embedded job keeps its checkpoints ({@code streamsplit.flink.checkpointing.storage}, by default a
     * directory under {@code java.io.tmpdir}), and a test context would resume from the previous test run's
     * (on another broker): each test context checkpoints to a directory of its own instead, deleted with the
     * context. A test that sets the property itself (its own properties win) keeps it.
     */
    private static void isolateCheckpoints(
            ConfigurableEnvironment environment, DefaultListableBeanFactory beanFactory, Map<String, Object> defaults) {
        Path directory;
        try {
            directory = Files.createTempDirectory("streamsplit-test-checkpoints-");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create the test context's checkpoint directory", e);
        }
        defaults.put(STORAGE, directory.toUri().toString());
        // registered before the application's beans, so destroyed after them: the job and its cluster are gone
        beanFactory.registerDisposableBean(
                "streamSplitTestCheckpoints", () -> FileSystemUtils.deleteRecursively(directory));
    }

    /** Every bootstrap-servers setting, global and per source or sink, now names the test broker. */
    private static void pointEverythingAt(
            String servers, ConfigurableEnvironment environment, Map<String, Object> defaults) {
        defaults.put("streamsplit.kafka.bootstrap-servers", servers);
        defaults.put("spring.kafka.bootstrap-servers", servers);
        defaults.put("streamsplit.kafka.embedded.enabled", false);
        StreamSplitKafkaProperties kafka = Binder.get(environment)
                .bind("streamsplit.kafka", Bindable.of(StreamSplitKafkaProperties.class))
                .orElseGet(StreamSplitKafkaProperties::new);
        kafka.getSources().forEach((name, source) -> {
            if (!source.getBootstrapServers().isEmpty()) {
                defaults.put("streamsplit.kafka.sources." + name + ".bootstrap-servers", servers);
            }
        });
        kafka.getSinks().forEach((name, sink) -> {
            if (!sink.getBootstrapServers().isEmpty()) {
                defaults.put("streamsplit.kafka.sinks." + name + ".bootstrap-servers", servers);
            }
        });
    }

    private static void addBelowTestProperties(MutablePropertySources sources, MapPropertySource defaults) {
        String inlined = TestPropertySourceUtils.INLINED_PROPERTIES_PROPERTY_SOURCE_NAME;
        if (sources.contains(inlined)) {
            sources.addAfter(inlined, defaults);
        } else {
            sources.addFirst(defaults);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StreamSplitTestContextCustomizer customizer && customizer.settings.equals(settings);
    }

    @Override
    public int hashCode() {
        return settings.hashCode();
    }
}
