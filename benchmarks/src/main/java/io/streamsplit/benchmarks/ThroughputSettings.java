package io.streamsplit.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** One shape and mode of the throughput harness, from its command-line flags. */
public record ThroughputSettings(
        int records,
        int recordSize,
        int partitions,
        int parallelism,
        int runs,
        ReadAs format,
        boolean officialTuned,
        boolean objectReuse,
        boolean aa,
        Map<String, String> b,
        @Nullable ReadAs bFormat) {
    public ThroughputSettings(int records, int recordSize, int partitions, int parallelism, int runs, ReadAs format) {
        this(records, recordSize, partitions, parallelism, runs, format, false, false, false, Map.of(), null);
    }

    public static ThroughputSettings parse(String... args) {
        ReadAs format = ReadAs.BYTES;
        Map<String, String> b = Map.of();
        ReadAs bFormat = null;
        List<String> ints = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--format") && i + 1 < args.length) {
                format = ReadAs.parse(args[++i]);
            } else if (args[i].equals("--b-format") && i + 1 < args.length) {
                bFormat = ReadAs.parse(args[++i]);
            } else if (args[i].equals("--b") && i + 1 < args.length) {
                b = consumerSettings(args[++i]);
            } else {
                ints.add(args[i]);
            }
        }
        Map<String, Integer> defaults = BenchmarkSupport.commonDefaults(5_000_000, 5);
        defaults.put("official-tuned", 0);
        defaults.put("object-reuse", 0);
        defaults.put("aa", 0);
        Map<String, Integer> f = BenchmarkSupport.flags(defaults, ints.toArray(String[]::new));
        return new ThroughputSettings(
                f.get("records"),
                f.get("record-size"),
                f.get("partitions"),
                f.get("parallelism"),
                f.get("runs"),
                format,
                f.get("official-tuned") != 0,
                f.get("object-reuse") != 0,
                f.get("aa") != 0,
                b,
                bFormat);
    }

    /** {@code "max.poll.records=500,fetch.max.wait.ms=100"} as an ordered map. */
    public static Map<String, String> consumerSettings(String list) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String pair : list.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || eq == pair.length() - 1) {
                throw new IllegalArgumentException("--b " + list + ": '" + pair + "' is not key=value; give"
                        + " Kafka consumer settings for the second StreamSplit run as"
                        + " key=value[,key=value...], e.g. --b max.partition.fetch.bytes=1048576");
            }
            settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return Collections.unmodifiableMap(settings);
    }

    /** Whether each round has a second StreamSplit run: an A/A ({@code --aa 1}) or an A/B ({@code --b}). */
    boolean secondRun() {
        return aa || !b.isEmpty() || bFormat != null;
    }

    /** The format of the second StreamSplit run: {@code --b-format}, else the shape's. */
    ReadAs secondRunFormat() {
        if (bFormat != null && bFormat.sameRecords(format)) {
            return bFormat;
        }
        if (bFormat != null) {
            throw new IllegalArgumentException("--b-format " + bFormat.name().toLowerCase(Locale.ROOT)
                    + " reads other records than --format " + format.name().toLowerCase(Locale.ROOT)
                    + "; compare JSON formats with JSON formats (json, json3, json-format), Protobuf with Protobuf"
                    + " (protobuf, protobuf-hand)");
        }
        return format;
    }

    /** The readers of each round, in the order of odd rounds; even rounds run them in reverse. */
    List<SourceThroughputBenchmark.Reader> readers() {
        return secondRun()
                ? List.of(SourceThroughputBenchmark.Reader.values())
                : SourceThroughputBenchmark.Reader.COMPARED;
    }

    /** What the second StreamSplit run is compared as: "A/A", or "A/B" with its settings. */
    String secondRunName() {
        return b.isEmpty() && bFormat == null ? "A/A" : "A/B";
    }

    /** "100 B bytes, 4 partitions, p=2" */
    public String shape() {
        return (format.orders()
                        ? format.name().toLowerCase(Locale.ROOT).replace('_', '-')
                        : recordSize + " B " + format.name().toLowerCase(Locale.ROOT))
                + ", " + partitions
                + " partitions, p=" + parallelism;
    }
}
