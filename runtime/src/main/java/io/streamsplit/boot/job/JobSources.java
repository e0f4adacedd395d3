package io.streamsplit.boot.job;

import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.transformations.SourceTransformation;

/**
 * The StreamSplit sources in the job the pipelines built, by source name, with the name of the operator
 * that reads each: the source beans, and the sources a pipeline built itself, such as the table source of
 * a {@code CREATE TABLE ... WITH ('connector' = 'streamsplit-kafka')} statement (named after the table,
 * {@code default_catalog.default_database.clicks}). The endpoints show and control both kinds alike.
 */
public final class JobSources {

    private volatile Map<String, Found> found = Map.of();

    private record Found(StreamSplitKafkaSource<?> source, String operator) {}

    /** Records the StreamSplit sources among {@code transformations} and everything upstream of them. */
    void record(List<Transformation<?>> transformations) {
        Map<String, Found> sources = new LinkedHashMap<>();
        Set<Transformation<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Transformation<?> sink : transformations) {
            for (Transformation<?> each : sink.getTransitivePredecessors()) {
                if (seen.add(each)
                        && each instanceof SourceTransformation<?, ?, ?> reading
                        && reading.getSource() instanceof StreamSplitKafkaSource<?> source) {
                    sources.putIfAbsent(source.name(), new Found(source, each.getName()));
                }
            }
        }
        found = Collections.unmodifiableMap(sources);
    }

    /**
     * The sources the pipelines built that are not among {@code beans} (the same instances), by source name:
     * what a listing of the beans misses.
     */
    public Map<String, StreamSplitKafkaSource<?>> notAmong(Map<String, StreamSplitKafkaSource<?>> beans) {
        Set<StreamSplitKafkaSource<?>> known = Collections.newSetFromMap(new IdentityHashMap<>());
        known.addAll(beans.values());
        Map<String, StreamSplitKafkaSource<?>> others = new LinkedHashMap<>();
        found.forEach((name, each) -> {
            if (!known.contains(each.source()) && !beans.containsKey(name)) {
                others.put(name, each.source());
            }
        });
        return others;
    }

    /**
     * The dead-letter topic of each source the job writes dead letters of itself, by source name: a
     * {@code 'streamsplit-kafka'} table with {@code 'scan.dead-letter-topic'}.
     */
    public Map<String, String> deadLetterTopics() {
        Map<String, String> topics = new LinkedHashMap<>();
        found.forEach((name, each) -> {
            String topic = each.source().deadLetterTopic();
            if (topic != null) {
                topics.put(name, topic);
            }
        });
        return topics;
    }

    /**
     * The dead-letter topics the sources write themselves (a {@code 'streamsplit-kafka'} table's, by a writer of
     * its own rather than a sink), as lineage datasets on each source's cluster.
     */
    List<JobLineage.Dataset> deadLetterDatasets() {
        List<JobLineage.Dataset> datasets = new java.util.ArrayList<>();
        found.values().forEach(each -> {
            String topic = each.source().deadLetterTopic();
            if (topic != null) {
                datasets.add(new JobLineage.Dataset(
                        io.streamsplit.connector.kafka.lineage.KafkaLineage.namespace(each.source()
                                .consumerProperties()
                                .getProperty(
                                        org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)),
                        topic));
            }
        });
        return datasets;
    }

    /** Where each source starts when the job has no state ("committed", "earliest", …), by source name. */
    public Map<String, String> startingOffsets() {
        Map<String, String> starts = new LinkedHashMap<>();
        found.forEach((name, each) ->
                starts.put(name, each.source().startingOffsets().kind().name().toLowerCase(java.util.Locale.ROOT)));
        return starts;
    }

    /** The operator that reads source {@code name}: the name the job gave it, else the source's own name. */
    public String operator(String name) {
        Found each = found.get(name);
        return each == null ? name : each.operator();
    }
}
