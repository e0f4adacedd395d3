package io.streamsplit.benchmarks.app;

/** An input record of the running-totals pipeline: {@code {"id":7,"account":"a7","amount":3}}. */
public record Payment(long id, String account, long amount) {}
