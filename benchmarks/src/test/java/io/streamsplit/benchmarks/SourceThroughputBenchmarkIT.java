package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** A tiny run of the source comparison in the normal build, so the harness cannot rot. */
class SourceThroughputBenchmarkIT {

    @Test
    void tinyRunReadsEverythingWithEachReaderAndReportsRatios() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        SourceThroughputBenchmark.Result result = SourceThroughputBenchmark.run(
                ThroughputSettings.parse("--records", "5000", "--runs", "2", "--partitions", "2", "--aa", "1"),
                new PrintStream(report, true, StandardCharsets.UTF_8));

        for (SourceThroughputBenchmark.Reader reader : SourceThroughputBenchmark.Reader.values()) {
            assertThat(result.gross().get(reader))
                    .as(reader.name())
                    .hasSize(2)
                    .allSatisfy(v -> assertThat(v).isPositive());
        }
        assertThat(result.fixedCostMillis().get(SourceThroughputBenchmark.Reader.STREAMSPLIT))
                .isPositive();
        assertThat(result.firstRecordMillis().get(SourceThroughputBenchmark.Reader.STREAMSPLIT))
                .hasSize(2)
                .allSatisfy(ms -> assertThat(ms).isPositive());
        String text = report.toString(StandardCharsets.UTF_8);
        assertThat(text)
                .contains(
                        "streamsplit/official",
                        "streamsplit/raw steady",
                        "streamsplit/raw-tuned steady",
                        "(median of rounds, lowest–highest round)",
                        "run 2 A/A: streamsplit-again/streamsplit steady",
                        "A/A: streamsplit-again/streamsplit ");
        // even rounds run the readers in reverse, so a drift within a round favours none of them
        assertThat(text.indexOf("run 1 RAW ")).isLessThan(text.indexOf("run 1 STREAMSPLIT_AGAIN"));
        assertThat(text.indexOf("run 2 STREAMSPLIT_AGAIN")).isLessThan(text.indexOf("run 2 RAW "));
        if (java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
            assertThat(text).contains("cpu s: fetcher ", ", task ", ", jit ", " cores busy");
        }
        for (SourceThroughputBenchmark.Reader reader : SourceThroughputBenchmark.Reader.values()) {
            // steady state excludes job start, so it is at least the whole-run rate
            assertThat(result.steady().get(reader).get(0))
                    .as(reader.name())
                    .isGreaterThanOrEqualTo(result.gross().get(reader).get(0));
        }
    }

    @Test
    void protobufOrdersReadByFormatProtobufAgainstAHandWrittenDeserializer() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        SourceThroughputBenchmark.Result result = SourceThroughputBenchmark.run(
                ThroughputSettings.parse(
                        "--records",
                        "3000",
                        "--runs",
                        "1",
                        "--partitions",
                        "2",
                        "--format",
                        "protobuf",
                        "--b-format",
                        "protobuf-hand"),
                new PrintStream(report, true, StandardCharsets.UTF_8));

        // every reader read every order (a run that fell short fails the harness); the hand-written
        // deserializer's messages go through Kryo between the chained operators and still arrive
        for (SourceThroughputBenchmark.Reader reader : SourceThroughputBenchmark.Reader.values()) {
            assertThat(result.gross().get(reader))
                    .as(reader.name())
                    .singleElement()
                    .satisfies(v -> assertThat(v).isPositive());
        }
        assertThat(report.toString(StandardCharsets.UTF_8)).contains("protobuf, 2 partitions", "A/B");
        assertThatThrownBy(() -> ThroughputSettings.parse("--format", "protobuf", "--b-format", "json")
                        .secondRunFormat())
                .hasMessageContaining("Protobuf with Protobuf");
    }

    @Test
    void officialSourceRunsWithKafkaDefaultsUnlessAskedForStreamSplitsFetchSettings() {
        assertThat(ThroughputSettings.parse("--records", "10").officialTuned()).isFalse();
        assertThat(ThroughputSettings.parse("--official-tuned", "1").officialTuned())
                .isTrue();
    }

    @Test
    void theSecondStreamSplitRunJoinsOnlyForAnAaComparison() {
        assertThat(ThroughputSettings.parse("--records", "10").readers())
                .isEqualTo(SourceThroughputBenchmark.Reader.COMPARED)
                .doesNotContain(SourceThroughputBenchmark.Reader.STREAMSPLIT_AGAIN);
        assertThat(ThroughputSettings.parse("--aa", "1").readers())
                .endsWith(
                        SourceThroughputBenchmark.Reader.STREAMSPLIT,
                        SourceThroughputBenchmark.Reader.STREAMSPLIT_AGAIN);
    }

    @Test
    void anAbRunGivesItsSettingsToTheSecondStreamSplitRunOnly() {
        ThroughputSettings ab = ThroughputSettings.parse(
                "--partitions", "4", "--b", "max.partition.fetch.bytes=1048576, fetch.min.bytes=1");
        assertThat(ab.b()).containsOnly(entry("max.partition.fetch.bytes", "1048576"), entry("fetch.min.bytes", "1"));
        assertThat(ab.readers()).contains(SourceThroughputBenchmark.Reader.STREAMSPLIT_AGAIN);
        assertThat(ab.secondRunName()).isEqualTo("A/B");

        // a temporary A/B whose B never reached the source once reported the noise floor as an effect
        Properties b = BenchmarkJobs.streamSplitSource(
                        SourceThroughputBenchmark.Reader.STREAMSPLIT_AGAIN, ab, "localhost:9092", "t")
                .consumerProperties();
        Properties a = BenchmarkJobs.streamSplitSource(
                        SourceThroughputBenchmark.Reader.STREAMSPLIT, ab, "localhost:9092", "t")
                .consumerProperties();
        assertThat(b).containsEntry("max.partition.fetch.bytes", "1048576").containsEntry("fetch.min.bytes", "1");
        assertThat(a).doesNotContainKeys("max.partition.fetch.bytes", "fetch.min.bytes");
        assertThat(ThroughputSettings.parse("--aa", "1").secondRunName()).isEqualTo("A/A");
    }

    @Test
    void anAbOfTwoJsonFormatsReadsTheSameRecordsBothWays() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        ThroughputSettings ab = ThroughputSettings.parse(
                "--records",
                "3000",
                "--runs",
                "1",
                "--partitions",
                "2",
                "--format",
                "json3",
                "--b-format",
                "json-format");

        SourceThroughputBenchmark.Result result =
                SourceThroughputBenchmark.run(ab, new PrintStream(report, true, StandardCharsets.UTF_8));

        assertThat(ab.secondRunFormat()).isEqualTo(ReadAs.JSON_FORMAT);
        assertThat(result.gross().get(SourceThroughputBenchmark.Reader.STREAMSPLIT_AGAIN))
                .hasSize(1)
                .allSatisfy(v -> assertThat(v).isPositive());
        assertThat(report.toString(StandardCharsets.UTF_8))
                .contains("json3, 2 partitions", "STREAMSPLIT_AGAIN with format JSON_FORMAT", "A/B: streamsplit-again");
        ReadAs.Order order = ReadAs.order3(ReadAs.JSON3.values(0).apply(7));
        assertThat(order.id).isEqualTo(7);
        assertThatThrownBy(() -> ThroughputSettings.parse("--format", "bytes", "--b-format", "json-format")
                        .secondRunFormat())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("compare JSON formats with JSON formats");
    }

    @Test
    void aMalformedAbSettingIsRefusedWithTheExpectedForm() {
        assertThatThrownBy(() -> ThroughputSettings.parse("--b", "max.poll.records"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'max.poll.records' is not key=value")
                .hasMessageContaining("--b max.partition.fetch.bytes=1048576");
    }
}
