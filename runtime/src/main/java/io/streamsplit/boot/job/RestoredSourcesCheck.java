package io.streamsplit.boot.job;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.source.savepoint.KafkaSourceState;
import io.streamsplit.connector.kafka.source.savepoint.SavepointSources;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before a job restores a savepoint or checkpoint, checks each source against the state it left
 * there, read from the application (a savepoint of StreamSplit's source or of Flink's official
 * {@code KafkaSource}):
 *
 * <ul>
 *   <li>state under a source's uid that no Kafka source (of a known state version) wrote fails the
 *       start, naming the uid property;
 *   <li>Kafka source state that no source of the job claims (a uid that changed, a source taken over
 *       from a hand-written job without its uid) fails the start with the topics it holds, rather
 *       than have Flink refuse an operator id, or, with unclaimed state allowed, drop the offsets;
 *   <li>offsets of topics a source no longer reads (a topic taken off the list, a pattern that now
 *       matches less) are reported: the source releases those partitions and their offsets go.
 * </ul>
 *
 * <p>Upstream, Flink's own Kafka source goes on reading such topics from its state (FLINK-34089,
 * closed as by design); here the configured topics decide, and the start says what was dropped.
 */
final class RestoredSourcesCheck {

    private static final Logger LOG = LoggerFactory.getLogger(RestoredSourcesCheck.class);

    /** A source the job reads: its name, operator uid and subscription. */
    record Source(
            String name,
            String uid,
            List<String> topics,
            @Nullable String pattern) {

        boolean reads(String topic) {
            return topics.contains(topic) || pattern != null && Pattern.matches(pattern, topic);
        }

        String subscription() {
            return pattern != null ? "topics matching '" + pattern + "'" : "topics " + topics;
        }
    }

    private RestoredSourcesCheck() {}

    /** Checks {@code sources} against the state in {@code savepoint}; see the class comment. */
    static void check(String savepoint, List<Source> sources, boolean unclaimedStateAllowed) {
        List<KafkaSourceState> states;
        try {
            states = SavepointSources.read(savepoint);
        } catch (IOException | RuntimeException e) {
            LOG.info(
                    "Could not read the sources' state in {} from the application ({}); Flink checks it when the job"
                            + " restores",
                    savepoint,
                    e.toString());
            return;
        }
        Map<String, KafkaSourceState> unclaimed = new LinkedHashMap<>();
        states.forEach(state -> unclaimed.put(state.operatorId(), state));
        List<Source> withoutState = new ArrayList<>();
        for (Source source : sources) {
            KafkaSourceState state = unclaimed.remove(SavepointSources.operatorId(source.uid()));
            if (state == null) {
                requireNoForeignState(savepoint, source);
                withoutState.add(source);
            } else {
                reportUnreadTopics(savepoint, source, state);
            }
        }
        if (!unclaimed.isEmpty()) {
            String orphans = unclaimed.values().stream()
                    .map(state -> "operator " + state.operatorId() + " with offsets of topics " + state.topics())
                    .collect(Collectors.joining("; "));
            // allowed, the job's state plan says which offsets are dropped (StatePlanner)
            if (!unclaimedStateAllowed) {
                Source suspect = withoutState.size() == 1 ? withoutState.get(0) : null;
                throw new InvalidStreamSplitConfigurationException(
                        suspect != null
                                ? KafkaSources.prefix(suspect.name()) + "uid"
                                : "streamsplit.kafka.sources.<name>.uid",
                        suspect != null ? suspect.uid() : null,
                        savepoint + " holds the state of a Kafka source that no source of this job has the uid of: "
                                + orphans
                                + (suspect != null
                                        ? "; source '" + suspect.name() + "' has no state there under uid '"
                                                + suspect.uid() + "'"
                                        : ""),
                        "Give the source that is to continue from those offsets the uid its predecessor had in the job"
                                + " that took the savepoint (what .uid(...) said after env.fromSource(kafkaSource, ...)"
                                + " in a hand-written job; '<name>-source' for a StreamSplit source). To drop them"
                                + " instead, set " + io.streamsplit.boot.job.state.StatePlan.ALLOW_DROP
                                + "=true for this start.");
            }
        }
        for (Source source : withoutState) {
            LOG.info(
                    "Source '{}' has no state under uid '{}' in {}: it starts from its starting offsets",
                    source.name(),
                    source.uid(),
                    savepoint);
        }
    }

    /** The savepoint's state under the source's uid, if any, is a Kafka source's. */
    private static void requireNoForeignState(String savepoint, Source source) {
        try {
            SavepointSources.read(savepoint, source.uid());
        } catch (IOException e) {
            throw new InvalidStreamSplitConfigurationException(
                    KafkaSources.prefix(source.name()) + "uid",
                    source.uid(),
                    String.valueOf(e.getMessage()),
                    "Restore a savepoint of a job whose source under this uid was StreamSplit's or Flink's KafkaSource"
                            + " (flink-connector-kafka 3.x to 5.0), or give this source another uid.",
                    e);
        }
    }

    private static void reportUnreadTopics(String savepoint, Source source, KafkaSourceState state) {
        Set<String> unread = new TreeSet<>(state.topics());
        unread.removeIf(source::reads);
        if (unread.isEmpty()) {
            return;
        }
        LOG.warn(
                "Source '{}' restores offsets of topics {} from {}, but reads {} now: those partitions are released"
                        + " and their offsets dropped. If the source is to go on reading them, add them to {}.",
                source.name(),
                unread,
                savepoint,
                source.subscription(),
                KafkaSources.prefix(source.name()) + (source.pattern() != null ? "pattern" : "topics"));
    }
}
