package io.streamsplit.boot.test.app;

/** A word, read as JSON ({@code {"text":"hello"}}). */
public record Word(String text) {}
