package io.streamsplit.benchmarks.app;

/** An output record of the running-totals pipeline: an account's total after the payment {@code lastId}. */
public record Total(String account, long total, long lastId) {}
