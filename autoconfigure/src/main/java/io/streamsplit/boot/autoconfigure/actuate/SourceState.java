package io.streamsplit.boot.autoconfigure.actuate;

import java.util.List;

/**
 * One configured source: its subscription and every split it reads.
 *
 * @param topics configured topics (empty for a pattern)
 * @param pattern configured topic pattern, or {@code null}
 * @param bounded whether the source stops (stopping-offsets not 'none')
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
        List<String> topics,
        String pattern,
        boolean bounded,
        String discoveryInterval,
        String lastDiscovery,
        Long assignedSplits,
        List<String> pendingSplits,
        long lag,
        long recordsIn,
        long recordsSkipped,
        long recordsDeadLettered,
        List<SplitState> splits) {}
