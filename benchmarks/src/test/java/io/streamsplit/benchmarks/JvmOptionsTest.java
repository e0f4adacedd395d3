package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * {@code --jvm '...'} of the separate-JVM harnesses: one string, split into the child JVMs' options; and the
 * one-JVM harnesses' refusal to measure with the client compiler only.
 */
class JvmOptionsTest {

    @Test
    void optionsAreSplitOnWhitespaceAndBlankGivesNone() {
        assertThat(BenchmarkSupport.jvmOptions(" -XX:+UseZGC   -Xss512k ")).containsExactly("-XX:+UseZGC", "-Xss512k");
        // an empty argument would reach java as a main class name
        assertThat(BenchmarkSupport.jvmOptions("  ")).isEmpty();
    }

    @Test
    void aHarnessThatMeasuresInItsOwnJvmRefusesTheClientCompilerOnly() {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        boolean clientOnly = Boolean.parseBoolean(
                        hotSpot.getVMOption("TieredCompilation").getValue())
                && Integer.parseInt(hotSpot.getVMOption("TieredStopAtLevel").getValue()) < 4;
        if (clientOnly) { // the build's test JVMs (-Dtest.jvm.options), as Maven's own JVM under exec:java
            assertThatThrownBy(() -> BenchmarkSupport.requireFullJit(LatencyBenchmark.class))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("LatencyBenchmark measures in its own JVM")
                    .hasMessageContaining("MAVEN_OPTS=-XX:TieredStopAtLevel=4 mvn -B -q exec:java -pl benchmarks");
        } else { // -Dtest.jvm.options= : the full JIT
            assertThatCode(() -> BenchmarkSupport.requireFullJit(LatencyBenchmark.class))
                    .doesNotThrowAnyException();
        }
    }
}
