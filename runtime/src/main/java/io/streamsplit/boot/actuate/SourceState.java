package io.streamsplit.boot.actuate;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One configured source: its subscription and every split it reads.
 *
 * @param state {@code RUNNING}, {@code PAUSED} (every reader paused from the control topic), or
 *     {@code CHANGING} while some readers have applied a pause or resume and others not yet
 * @param maxRecordsPerSecond the rate limit in force over all readers ({@code 0}: unthrottled), or
 *     {@code null} while no reader reported it
 * @param topics configured topics (empty for a pattern)
 * @param pattern configured topic pattern, or {@code null}
 * @param bounded whether the source stops (stopping-offsets set)
 * @param discoveryInterval partition discovery interval (e.g. {@code 30s}), or {@code null}: once at start
 * @param lastDiscovery time of the last successful partition discovery (ISO-8601), or {@code null}
 * @param assignedSplits splits assigned to readers, per the enumerator
 * @param pendingSplits splits waiting for their reader, per the enumerator
 * @param lag total lag of the splits below, in records
 * @param recordsIn records read (all readers)
 * @param recordsSkipped bad records skipped
 * @param recordsDeadLettered bad records sent to the dead-letter topic
 * @param splits the splits, by topic and partition
 */
public record SourceState(
        String state,
        @Nullable Double maxRecordsPerSecond,
        List<String> topics,
        @Nullable String pattern,
        boolean bounded,
        @Nullable String discoveryInterval,
        @Nullable String lastDiscovery,
        @Nullable Long assignedSplits,
        List<String> pendingSplits,
        long lag,
        long recordsIn,
        long recordsSkipped,
        long recordsDeadLettered,
        List<SplitState> splits) {}
