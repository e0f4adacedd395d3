package io.streamsplit.benchmarks.kstreams;

/** An account's running total after payment {@code lastId}: the output of topology {@code totals}. */
public record Total(String account, long total, long lastId) {}
