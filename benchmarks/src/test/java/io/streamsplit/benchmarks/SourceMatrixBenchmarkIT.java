package io.streamsplit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny matrix in the normal build: two shapes (bytes and JSON), one run each, all three outputs. */
class SourceMatrixBenchmarkIT {

    @TempDir
    Path out;

    @Test
    void tinyMatrixReportsEveryShapeAndWritesCsvJsonAndChart() throws Exception {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        List<SourceMatrixBenchmark.Row> rows = SourceMatrixBenchmark.run(
                SourceMatrixBenchmark.shapes(
                        Map.of(
                                "records", "3000",
                                "max-mb", "0",
                                "record-sizes", "10",
                                "partitions", "2",
                                "parallelism", "1",
                                "formats", "bytes,json"),
                        1,
                        false),
                new PrintStream(report, true, StandardCharsets.UTF_8));
        SourceMatrixBenchmark.write(rows, out);

        assertThat(rows).extracting(row -> row.shape().format()).containsExactly(ReadAs.BYTES, ReadAs.JSON);
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.ssOverOfficial().median())
                    .isPositive()
                    .isBetween(row.ssOverOfficial().low(), row.ssOverOfficial().high());
            assertThat(row.median().values()).allSatisfy(v -> assertThat(v).isPositive());
        });
        assertThat(report.toString(StandardCharsets.UTF_8))
                .contains(
                        "10 B bytes, 2 partitions, p=1",
                        "json, 2 partitions, p=1",
                        "ss/off",
                        "targets (median of rounds",
                        "streamsplit/official >= 1.00, every shape");
        assertThat(Files.readAllLines(out.resolve("results.csv")))
                .hasSize(3)
                .first()
                .asString()
                .startsWith("format,record_size,partitions,parallelism")
                .contains("ss_over_official,ss_over_official_low,ss_over_official_high");
        assertThat(Files.readString(out.resolve("results.json")))
                .contains("\"format\":\"json\"", "\"streamsplit\":{", "\"ssOverOfficial\":{\"median\":");
        assertThat(Files.readString(out.resolve("results.svg")))
                .startsWith("<svg")
                .contains("json, 2 part., p=1");
    }

    @Test
    void objectReuseReachesEveryShapeOnlyWhenAskedFor() {
        List<ThroughputSettings> reuse = SourceMatrixBenchmark.shapes(
                1000, 0, 5, List.of(10, 1024), List.of(1, 64), List.of(1, 2), List.of(ReadAs.BYTES, ReadAs.JSON), true);
        // bytes: 2 sizes x 2 partition counts x 2 parallelisms; JSON has its natural size only
        assertThat(reuse)
                .hasSize(12)
                .allSatisfy(shape -> assertThat(shape.objectReuse()).isTrue());
        assertThat(SourceMatrixBenchmark.shapes(
                        1000, 0, 5, List.of(10), List.of(1), List.of(1), List.of(ReadAs.STRING), false))
                .singleElement()
                .satisfies(shape -> assertThat(shape.objectReuse()).isFalse());
    }

    @Test
    void theMegabyteCapShortensOnlyShapesWhoseValuesExceedIt() {
        assertThat(SourceMatrixBenchmark.records(10_000_000, 1024, 1024)).isEqualTo(1_048_576);
        assertThat(SourceMatrixBenchmark.records(10_000_000, 1024, 10)).isEqualTo(10_000_000);
        assertThat(SourceMatrixBenchmark.records(10_000_000, 0, 1024))
                .as("no cap")
                .isEqualTo(10_000_000);
        assertThat(SourceMatrixBenchmark.records(10_000_000, 1024, 0))
                .as("JSON sizes itself")
                .isEqualTo(10_000_000);
    }

    @Test
    void jsonRecordsAreReadIntoPojosByEveryReader() {
        ReadAs.Order order = ReadAs.order(ReadAs.JSON.values(0).apply(5));
        assertThat(order.id).isEqualTo(5);
        assertThat(order.customer).isEqualTo("bob");
    }
}
