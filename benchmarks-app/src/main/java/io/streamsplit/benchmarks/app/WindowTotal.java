package io.streamsplit.benchmarks.app;

/**
 * An output record of the windowed pipeline (profile {@code windows}): the payments of one account in the
 * one-minute window starting at {@code windowStart} (epoch ms), how many and their sum.
 */
public record WindowTotal(String account, long windowStart, long count, long total) {}
