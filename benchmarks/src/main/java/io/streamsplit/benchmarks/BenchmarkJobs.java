package io.streamsplit.benchmarks;

import io.streamsplit.benchmarks.SourceThroughputBenchmark.Reader;
import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.connector.kafka.source.reader.KafkaSourceReader;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/** The bounded read job the throughput harnesses run, and each reader's source in it. */
public final class BenchmarkJobs {

    private BenchmarkJobs() {}

    /**
     * The bounded job a Flink reader runs: {@code reader}'s source over {@code topic} → counting map
     * ({@link Counting}, which also stamps {@link ReadClock}) → discarding sink.
     */
    public static JobGraph jobGraph(Reader reader, String bootstrap, String topic, ThroughputSettings settings)
            throws IOException {
        Configuration jobConfig = BenchmarkSupport.jobConfiguration(settings.parallelism());
        // off by default, as in Flink: every chained operator then gets its own copy of each element
        jobConfig.set(PipelineOptions.OBJECT_REUSE, settings.objectReuse());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(jobConfig);
        ReadAs format = settings.format();
        Source<Object, ?, ?> source = reader == Reader.OFFICIAL
                ? KafkaSource.<Object>builder()
                        .setProperties(settings.officialTuned() ? streamSplitFetchSettings(settings) : new Properties())
                        .setBootstrapServers(bootstrap)
                        .setTopics(topic)
                        .setStartingOffsets(OffsetsInitializer.earliest())
                        .setBounded(OffsetsInitializer.latest())
                        .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                        .setDeserializer(format.official())
                        .build()
                : streamSplitSource(reader, settings, bootstrap, topic);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), reader.name().toLowerCase(Locale.ROOT))
                .map(new Counting())
                .returns(format.type())
                .sinkTo(new DiscardingSink<>());
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(reader + " read");
        JobGraph job = graph.getJobGraph();
        job.setClasspaths(env.getConfiguration().getOptional(PipelineOptions.CLASSPATHS).orElse(List.of()).stream()
                .map(BenchmarkJobs::url)
                .toList());
        return job;
    }

    /**
     * Not a Kafka setting: {@code --b control.topic=<name>} builds the second StreamSplit run with
     * {@code setControlTopic(name)}, to measure what a controllable source costs unthrottled.
     */
    public static final String CONTROL_TOPIC = "control.topic";

    /** StreamSplit's source for {@code reader}; the second run of an A/B gets the {@code --b} settings. */
    static StreamSplitKafkaSource<Object> streamSplitSource(
            Reader reader, ThroughputSettings settings, String bootstrap, String topic) {
        Map<String, String> b = new java.util.HashMap<>(reader == Reader.STREAMSPLIT_AGAIN ? settings.b() : Map.of());
        String controlTopic = b.remove(CONTROL_TOPIC);
        var builder = StreamSplitKafkaSource.<Object>builder();
        if (controlTopic != null) {
            builder.setControlTopic(controlTopic); // a controlled source: always on the rate-limited emit path
        }
        return builder.setBootstrapServers(bootstrap)
                .setTopics(topic)
                .setProperties(b)
                .setBounded(StoppingOffsets.latest())
                .setRecordEmitter(
                        (reader == Reader.STREAMSPLIT_AGAIN ? settings.secondRunFormat() : settings.format()).emitter(),
                        settings.format().type())
                .build();
    }

    /**
     * The fetch settings StreamSplit's readers use by default on this shape (partitions spread
     * evenly): records per poll read from a built source, the per-partition size the reader picks.
     */
    private static Properties streamSplitFetchSettings(ThroughputSettings settings) {
        int partitionsPerReader = (settings.partitions() + settings.parallelism() - 1) / settings.parallelism();
        Properties fetch = new Properties();
        fetch.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, StreamSplitDefaults.MAX_POLL_RECORDS);
        fetch.setProperty(
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
                String.valueOf(KafkaSourceReader.partitionFetchBytes(partitionsPerReader)));
        return fetch;
    }

    /**
     * StreamSplit's default records per poll, read from a built source once, when the first
     * {@code --official-tuned} job asks for it (a warm-up run), not inside every timed run.
     */
    private static final class StreamSplitDefaults {
        static final String MAX_POLL_RECORDS = StreamSplitKafkaSource.<Object>builder()
                .setBootstrapServers("localhost:9092")
                .setTopics("any")
                .setRecordEmitter(ReadAs.BYTES.emitter(), ReadAs.BYTES.type())
                .build()
                .consumerProperties()
                .getProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG);
    }

    private static URL url(String url) {
        try {
            return URI.create(url).toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(url, e);
        }
    }
}
