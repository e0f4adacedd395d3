package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code --jvm '...'} of the separate-JVM harnesses: one string, split into the child JVMs' options. */
class JvmOptionsTest {

    @Test
    void optionsAreSplitOnWhitespaceAndBlankGivesNone() {
        assertThat(BenchmarkSupport.jvmOptions(" -XX:+UseZGC   -Xss512k ")).containsExactly("-XX:+UseZGC", "-Xss512k");
        // an empty argument would reach java as a main class name
        assertThat(BenchmarkSupport.jvmOptions("  ")).isEmpty();
    }
}
