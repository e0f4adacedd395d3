package io.streamsplit.boot.actuate;

import org.jspecify.annotations.Nullable;

/**
 * Where one split (a Kafka partition) stands. Offsets not known yet are {@code null}.
 *
 * @param topic the topic
 * @param partition the partition
 * @param readerSubtask the source reader subtask that owns the split
 * @param startingOffset the offset the reader started this split from (assignment or restore)
 * @param currentOffset the next offset the reader will emit
 * @param committedOffset the offset last committed to the consumer group on a checkpoint
 * @param logEndOffset the partition's end offset as last seen by the consumer
 * @param lag {@code logEndOffset - currentOffset}
 * @param stoppingOffset where a bounded source stops; {@code null} when unbounded
 * @param watermark the reader subtask's current output watermark (epoch ms); Flink has no per-split value
 * @param paused whether the reader paused the partition for watermark alignment
 * @param gone whether the partition is gone from Kafka (its topic deleted, or shrunk): the reader stopped
 *     fetching it, and only partition discovery or a restart lets go of it
 */
public record SplitState(
        String topic,
        int partition,
        int readerSubtask,
        @Nullable Long startingOffset,
        @Nullable Long currentOffset,
        @Nullable Long committedOffset,
        @Nullable Long logEndOffset,
        @Nullable Long lag,
        @Nullable Long stoppingOffset,
        @Nullable Long watermark,
        boolean paused,
        boolean gone) {}
