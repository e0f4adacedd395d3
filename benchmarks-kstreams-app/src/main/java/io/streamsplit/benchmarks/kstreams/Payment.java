package io.streamsplit.benchmarks.kstreams;

/** An input record: {@code {"id":7,"account":"a7","amount":3}}, as the StreamSplit benchmarks app reads it. */
public record Payment(long id, String account, long amount) {}
