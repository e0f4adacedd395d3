package io.streamsplit.benchmarks.isolated;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.SourceMatrixBenchmark;
import io.streamsplit.benchmarks.SourceThroughputBenchmark.Reader;
import io.streamsplit.benchmarks.ThroughputSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The flags of {@link IsolatedBenchmark}: the matrix of shapes, rounds, and the reader JVMs' options. */
record IsolatedSettings(
        List<ThroughputSettings> shapes,
        int rounds,
        int warmup,
        String xmx,
        List<String> jvm,
        Map<String, String> b,
        @Nullable Path out) {

    static IsolatedSettings parse(String... args) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("records", "5000000");
        f.put("max-mb", "1024");
        f.put("rounds", "5");
        f.put("warmup", "1");
        f.put("record-sizes", "100");
        f.put("partitions", "4");
        f.put("parallelism", "2");
        f.put("formats", "bytes");
        f.put("xmx", "2g");
        f.put("jvm", "");
        f.put("b", "");
        f.put("official-tuned", "0");
        f.put("out", "");
        f = BenchmarkSupport.options(f, args);
        Map<String, String> b = f.get("b").isBlank() ? Map.of() : ThroughputSettings.consumerSettings(f.get("b"));
        boolean officialTuned = !f.get("official-tuned").equals("0");
        List<ThroughputSettings> shapes = SourceMatrixBenchmark.shapes(f, 1, false).stream()
                .map(s -> new ThroughputSettings(
                        s.records(),
                        s.recordSize(),
                        s.partitions(),
                        s.parallelism(),
                        1,
                        s.format(),
                        officialTuned,
                        false,
                        false,
                        b,
                        null))
                .toList();
        return new IsolatedSettings(
                shapes,
                Integer.parseInt(f.get("rounds")),
                Integer.parseInt(f.get("warmup")),
                f.get("xmx"),
                BenchmarkSupport.jvmOptions(f.get("jvm")),
                b,
                f.get("out").isBlank() ? null : Path.of(f.get("out")));
    }

    /** Official and StreamSplit; with {@code --b}, a StreamSplit run with those consumer settings too. */
    List<Reader> readers() {
        return b.isEmpty()
                ? List.of(Reader.OFFICIAL, Reader.STREAMSPLIT)
                : List.of(Reader.OFFICIAL, Reader.STREAMSPLIT, Reader.STREAMSPLIT_AGAIN);
    }

    /** The options of every reader JVM: {@code -Xmx}, then {@code --jvm}'s. */
    List<String> jvmOptions() {
        List<String> options = new ArrayList<>();
        options.add("-Xmx" + xmx);
        options.addAll(jvm);
        return options;
    }
}
