package io.streamsplit.boot.job;

import io.streamsplit.boot.kafka.KafkaSinks;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.source.KafkaSourceStream;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.pipeline.PipelineContext;
import java.util.ArrayList;
import java.util.HashMap;
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

    public DefaultPipelineContext(
            StreamExecutionEnvironment environment, BeanFactory beanFactory, KafkaSources sources, KafkaSinks sinks) {
        this.environment = environment;
        this.beanFactory = beanFactory;
        this.sources = sources;
        this.sinks = sinks;
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
    public <T> DataStreamSink<T> sink(String name, DataStream<T> stream) {
        return stream.sinkTo(sinks.create(name, stream.getType()))
                .name("sink " + name)
                .uid(sinks.uid(name));
    }
}
