package io.streamsplit.boot.job;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.config.NearestNames;
import io.streamsplit.boot.job.step.DefaultStep;
import io.streamsplit.boot.job.step.ProcessingErrors;
import io.streamsplit.boot.kafka.KafkaSinks;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.source.KafkaSourceStream;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.pipeline.PipelineContext;
import io.streamsplit.pipeline.Step;
import io.streamsplit.pipeline.step.StepErrorRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.springframework.beans.factory.BeanFactory;

/**
 * The {@link PipelineContext} of one job build; sources are added once and shared by all pipelines. A
 * source is a {@code StreamSplitKafkaSource} bean: the one {@code streamsplit.kafka.sources.<name>}
 * defines, or one the application defines itself under that name.
 */
public final class DefaultPipelineContext implements PipelineContext {

    private final StreamExecutionEnvironment environment;
    private final BeanFactory beanFactory;
    private final KafkaSources sources;
    private final KafkaSinks sinks;
    private final Map<String, DataStream<?>> added = new HashMap<>();
    private final List<RestoredSourcesCheck.Source> addedSources = new ArrayList<>();
    private final ProcessingErrors errors;
    private final Map<String, DefaultStep> steps = new LinkedHashMap<>();
    private final Map<String, StepErrorRules> stepRules = new LinkedHashMap<>();

    public DefaultPipelineContext(
            StreamExecutionEnvironment environment,
            BeanFactory beanFactory,
            KafkaSources sources,
            KafkaSinks sinks,
            ProcessingErrors errors) {
        this.environment = environment;
        this.beanFactory = beanFactory;
        this.sources = sources;
        this.sinks = sinks;
        this.errors = errors;
    }

    @Override
    public StreamExecutionEnvironment environment() {
        return environment;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> DataStream<T> source(String name) {
        DataStream<?> stream = added.get(name);
        if (stream == null) {
            if (!sources.isConfigured(name)
                    && !(beanFactory.containsBean(name)
                            && beanFactory.isTypeMatch(name, StreamSplitKafkaSource.class))) {
                throw sources.notConfigured(name);
            }
            StreamSplitKafkaSource<T> source = beanFactory.getBean(name, StreamSplitKafkaSource.class);
            String uid = sources.uid(name);
            KafkaSourceStream<T> added = KafkaSourceStream.of(environment, source, sources.watermarks(name), name, uid);
            addedSources.add(new RestoredSourcesCheck.Source(name, uid, source.topics(), source.topicPattern()));
            if (added.hasDeadLetters()) {
                // named after its topic: the chain "Source: orders -> split -> orders.DLT: Writer -> ..." stays
                // under Flink's 80-character metric name limit
                added.deadLetters()
                        .sinkTo(sinks.deadLetters(name))
                        .name(Objects.requireNonNull(sources.reading(name).deadLetterTopic()))
                        .uid("streamsplit-dead-letters-" + name);
            }
            stream = added.records();
            this.added.put(name, stream);
        }
        return (DataStream<T>) stream;
    }

    /** The sources the pipelines added so far, with their uids. */
    List<RestoredSourcesCheck.Source> addedSources() {
        return List.copyOf(addedSources);
    }

    @Override
    public Step step(String name) {
        if (name == null || name.isBlank() || name.contains(" ")) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.processing-errors.steps",
                    name,
                    "a step's name is its operator's uid, its meters' tag and its key under"
                            + " streamsplit.processing-errors.steps, so it cannot be blank or hold spaces",
                    "Name it like a YAML key, e.g. pipeline.step(\"price-orders\").");
        }
        if (steps.containsKey(name)) {
            throw new InvalidStreamSplitConfigurationException(
                    ProcessingErrors.prefix(name).replaceAll("\\.$", ""),
                    name,
                    "two steps of the pipelines are named '" + name + "'",
                    "Give each pipeline.step(...) its own name: it is the operator's uid, its meters' tag and its"
                            + " key under streamsplit.processing-errors.steps.");
        }
        DefaultStep step = new DefaultStep(name, errors, sinks, stepRules);
        steps.put(name, step);
        return step;
    }

    /** The steps the pipelines built, with their rules. */
    Map<String, StepErrorRules> builtSteps() {
        return java.util.Collections.unmodifiableMap(stepRules);
    }

    /**
     * Refuses steps YAML configures that no pipeline builds: a misspelt step name would leave its settings
     * unused.
     */
    void checkConfiguredSteps() {
        for (String configured : errors.configuredSteps()) {
            if (!stepRules.containsKey(configured)) {
                List<String> near = NearestNames.nearest(configured, stepRules.keySet(), 3, 3);
                throw new InvalidStreamSplitConfigurationException(
                        ProcessingErrors.prefix(configured).replaceAll("\\.$", ""),
                        configured,
                        "no pipeline builds a step named '" + configured + "' (the steps are " + stepRules.keySet()
                                + ")",
                        near.isEmpty()
                                ? "Remove it, or build the step with pipeline.step(\"" + configured + "\")."
                                : "Did you mean " + near + "?");
            }
        }
    }

    @Override
    public <T> DataStreamSink<T> sink(String name, DataStream<T> stream) {
        return stream.sinkTo(sinks.create(name, stream.getType()))
                .name("sink " + name)
                .uid(sinks.uid(name));
    }
}
