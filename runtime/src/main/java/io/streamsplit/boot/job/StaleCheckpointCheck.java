package io.streamsplit.boot.job;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.state.RetainedCheckpointPolicy;
import io.streamsplit.boot.job.state.RetainedCheckpoints;
import io.streamsplit.boot.job.state.StaleCheckpointAction;
import io.streamsplit.boot.kafka.BoundedAdmin;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.source.savepoint.CheckpointedOffsets;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before an embedded job resumes from the newest checkpoint it retained, checks that the checkpoint's
 * offsets still fit the topics in Kafka: a topic that no longer exists, a partition that is gone, or
 * an offset beyond a partition's end means the topics were deleted and recreated since, and resuming
 * would skip or misread records. {@code streamsplit.flink.checkpointing.on-stale-checkpoint} decides:
 * fail with a report (default), start fresh (the job's checkpoint directory is renamed aside, not
 * deleted), or resume anyway. The savepoint {@code streamsplit.flink.restore-path} names gets the same
 * comparison ({@link #checkRestorePath}); there only failing or restoring anyway make sense.
 */
public final class StaleCheckpointCheck implements RetainedCheckpointPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(StaleCheckpointCheck.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String PROPERTY = "streamsplit.flink.checkpointing.on-stale-checkpoint";

    private final KafkaSources sources;
    private final StaleCheckpointAction action;
    private final KafkaClients clientProperties;

    public StaleCheckpointCheck(KafkaSources sources, StaleCheckpointAction action, KafkaClients clientProperties) {
        this.sources = sources;
        this.action = action;
        this.clientProperties = clientProperties;
    }

    @Override
    public boolean resume(RetainedCheckpoints.Checkpoint checkpoint) {
        Map<TopicPartition, Long> offsets;
        try {
            offsets = CheckpointedOffsets.read(checkpoint.path());
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "Could not read the offsets of retained checkpoint {} to compare them with Kafka ({}); resuming"
                            + " from it",
                    checkpoint.path(),
                    e.toString());
            return true;
        }
        List<String> stale = stale(offsets);
        if (stale.isEmpty()) {
            return true;
        }
        String found = (checkpoint.id() >= 0 ? "retained checkpoint " + checkpoint.id() : "savepoint") + " ("
                + checkpoint.path() + ", written "
                + checkpoint.writtenAt() + ") does not fit the topics in Kafka: " + String.join("; ", stale)
                + " — the topics were probably deleted and recreated since";
        switch (action) {
            case RESUME -> {
                LOG.warn(
                        "Resuming anyway ({}=resume): {}. The offset reset strategy decides where those partitions"
                                + " continue.",
                        PROPERTY,
                        found);
                return true;
            }
            case START_FRESH -> {
                String aside = moveAside(checkpoint);
                LOG.warn(
                        "Starting fresh ({}=start-fresh): {}. The job's checkpoints were moved to {}; sources start"
                                + " from their starting offsets.",
                        PROPERTY,
                        found,
                        aside);
                return false;
            }
            default ->
                throw new InvalidStreamSplitConfigurationException(
                        PROPERTY,
                        "fail",
                        found,
                        "Start from the sources' starting offsets with " + PROPERTY
                                + "=start-fresh (the checkpoints are"
                                + " moved aside, not deleted), resume anyway with " + PROPERTY + "=resume, or remove "
                                + checkpoint.jobDirectory() + ".");
        }
    }

    /**
     * The savepoint of {@code streamsplit.flink.restore-path} fits the topics its sources read: a
     * topic gone, a partition gone or an offset beyond a partition's end fails the start (with
     * {@code on-stale-checkpoint: resume}, a warning). Topics no source reads any more are not
     * compared: their offsets are dropped anyway.
     */
    @Override
    public void checkRestorePath(String path) {
        Map<TopicPartition, Long> offsets;
        try {
            offsets = new HashMap<>(CheckpointedOffsets.read(path));
        } catch (IOException | RuntimeException e) {
            LOG.info(
                    "Could not read the offsets in streamsplit.flink.restore-path={} from the application ({}); Flink"
                            + " reads them when the job restores",
                    path,
                    e.toString());
            return;
        }
        offsets.keySet().removeIf(tp -> readerOf(tp.topic()) == null);
        List<String> stale = stale(offsets);
        if (stale.isEmpty()) {
            return;
        }
        String found = "the savepoint " + path + " does not fit the topics in Kafka: " + String.join("; ", stale)
                + " — the topics were deleted (and perhaps recreated) since it was taken";
        if (action == StaleCheckpointAction.RESUME) {
            LOG.warn(
                    "Restoring anyway ({}=resume): {}. The offset reset strategy decides where those partitions"
                            + " continue.",
                    PROPERTY,
                    found);
            return;
        }
        throw new InvalidStreamSplitConfigurationException(
                "streamsplit.flink.restore-path",
                path,
                found,
                "Restore a savepoint taken from these topics as they are now, remove streamsplit.flink.restore-path to"
                        + " start from the sources' starting offsets, or restore anyway with " + PROPERTY + "=resume.");
    }

    /** One sentence per partition that does not fit, e.g. "orders-2 continues at 1200, beyond its end 800". */
    private List<String> stale(Map<TopicPartition, Long> offsets) {
        List<String> stale = new ArrayList<>();
        Map<String, List<TopicPartition>> byServers = new LinkedHashMap<>();
        Map<String, String> serversByTopic = new HashMap<>(); // a topic's partitions share its source's Kafka
        offsets.keySet()
                .forEach(tp -> byServers
                        .computeIfAbsent(
                                serversByTopic.computeIfAbsent(tp.topic(), this::serversOf), s -> new ArrayList<>())
                        .add(tp));
        for (Map.Entry<String, List<TopicPartition>> cluster : byServers.entrySet()) {
            Properties admin = KafkaClients.checkingAdmin(
                    clientProperties.forClient(KafkaClients.Kind.ADMIN, cluster.getKey(), Map.of()),
                    "streamsplit-checkpoint-check",
                    TIMEOUT);
            try (BoundedAdmin bounded = BoundedAdmin.create(admin)) {
                Admin client = bounded.admin();
                stale.addAll(compare(client, cluster.getValue(), offsets));
            } catch (Exception e) {
                LOG.warn(
                        "Could not compare the retained checkpoint with Kafka at {} ({}); resuming from it",
                        cluster.getKey(),
                        e.toString());
            }
        }
        return stale;
    }

    private static List<String> compare(
            Admin client, List<TopicPartition> partitions, Map<TopicPartition, Long> offsets) throws Exception {
        Set<String> topics = partitions.stream().map(TopicPartition::topic).collect(Collectors.toSet());
        Set<String> existing = client.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        List<String> stale = new ArrayList<>();
        topics.stream()
                .filter(topic -> !existing.contains(topic))
                .sorted()
                .forEach(topic -> stale.add("topic '" + topic + "' no longer exists"));
        List<String> present = topics.stream().filter(existing::contains).toList();
        if (present.isEmpty()) {
            return stale;
        }
        Map<String, TopicDescription> described =
                client.describeTopics(present).allTopicNames().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        for (TopicPartition tp : partitions) {
            TopicDescription topic = described.get(tp.topic());
            if (topic == null) {
                continue;
            }
            if (tp.partition() >= topic.partitions().size()) {
                stale.add(tp + " no longer exists (the topic has "
                        + topic.partitions().size() + " partitions)");
            } else {
                ends.put(tp, OffsetSpec.latest());
            }
        }
        Map<TopicPartition, ListOffsetsResultInfo> latest =
                client.listOffsets(ends).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        latest.forEach((tp, end) -> {
            long next = offsets.getOrDefault(tp, -1L); // asked for the checkpoint's partitions only
            if (next > end.offset()) {
                stale.add(tp + " continues at offset " + next + ", beyond its end " + end.offset());
            }
        });
        return stale;
    }

    /** The servers of the source that reads {@code topic} (its own, else the shared ones). */
    private String serversOf(String topic) {
        String source = readerOf(topic);
        return source != null ? sources.reading(source).bootstrapServers() : sources.sharedBootstrapServers();
    }

    /** The name of the configured source that reads {@code topic}, or {@code null}. */
    private @Nullable String readerOf(String topic) {
        for (String source : sources.names()) {
            KafkaSources.Reading reading = sources.reading(source);
            boolean reads = reading.topics().contains(topic)
                    || reading.pattern() != null
                            && Pattern.compile(reading.pattern()).matcher(topic).matches();
            if (reads) {
                return source;
            }
        }
        return null;
    }

    private static String moveAside(RetainedCheckpoints.Checkpoint checkpoint) {
        Path directory = new Path(checkpoint.jobDirectory());
        Path aside = new Path(
                directory.getParent(),
                directory.getName() + ".stale-"
                        + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        try {
            FileSystem fs = directory.getFileSystem();
            if (!fs.rename(directory, aside)) {
                throw new IOException("rename returned false");
            }
            return aside.toString();
        } catch (IOException e) {
            throw new InvalidStreamSplitConfigurationException(
                    PROPERTY,
                    "start-fresh",
                    "the stale checkpoints in " + directory + " could not be moved aside: " + e.getMessage(),
                    "Move or remove " + directory + " yourself.",
                    e);
        }
    }
}
