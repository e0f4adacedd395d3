package io.streamsplit.benchmarks;

import io.streamsplit.connector.kafka.source.StoppingOffsets;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * How closely {@code max-records-per-second} holds: for each limit, a bounded job reads
 * {@code --seconds} worth of records at that limit, and the harness prints the rate over the steady
 * second half (after the limiter's initial one-second burst) and over the whole read, as ratios to
 * the limit. Records are stamped as they pass through the job.
 *
 * <pre>
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.ThrottleBenchmark \
 *     -Dexec.args="--seconds 10 --partitions 4 --parallelism 2"
 * </pre>
 */
public final class ThrottleBenchmark {

    /** Rates to check, in records per second. */
    static final int[] LIMITS = {100, 1_000, 10_000};

    /** One limit's outcome. */
    /** {@code taskCpu}: CPU seconds of the source's task threads per second of reading, -1 off Linux. */
    record Row(int limit, int records, double steady, double whole, double taskCpu) {}

    private ThrottleBenchmark() {}

    public static void main(String[] args) throws Exception {
        BenchmarkSupport.requireFullJit(ThrottleBenchmark.class);
        Map<String, Integer> flags =
                BenchmarkSupport.flags(Map.of("seconds", 10, "partitions", 4, "parallelism", 2), args);
        run(flags.get("seconds"), flags.get("partitions"), flags.get("parallelism"), LIMITS, System.out);
    }

    /** Runs every limit and prints one line each; returns the rows. */
    static List<Row> run(int seconds, int partitions, int parallelism, int[] limits, PrintStream out) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            out.printf(
                    Locale.ROOT,
                    "throttle: %d s of records per limit, %d partitions, parallelism %d%n",
                    seconds,
                    partitions,
                    parallelism);
            out.printf(
                    Locale.ROOT,
                    "%10s %9s %12s %12s %8s %8s %14s%n",
                    "limit/s",
                    "records",
                    "steady/s",
                    "whole/s",
                    "steady×",
                    "whole×",
                    "task cpu s/s");
            for (int limit : limits) {
                String topic = "throttle-" + limit;
                broker.createTopic(topic, partitions);
                int records = limit * seconds;
                BenchmarkSupport.writeRecords(broker.bootstrapServers(), topic, records, 100);
                Row row = read(broker.bootstrapServers(), topic, limit, records, parallelism);
                rows.add(row);
                out.printf(
                        Locale.ROOT,
                        "%10d %9d %12.0f %12.0f %8.2f %8.2f %14.2f%n",
                        limit,
                        row.records(),
                        row.steady(),
                        row.whole(),
                        row.steady() / limit,
                        row.whole() / limit,
                        row.taskCpu());
            }
        }
        return rows;
    }

    private static Row read(String servers, String topic, int limit, int records, int parallelism) throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(BenchmarkSupport.jobConfiguration(parallelism));
        StreamSplitKafkaSource<byte[]> source = StreamSplitKafkaSource.<byte[]>builder()
                .setBootstrapServers(servers)
                .setTopics(topic)
                .setRecordEmitter((record, collector) -> collector.collect(record.value()), byte[].class)
                .setBounded(StoppingOffsets.latest())
                .setMaxRecordsPerSecond(limit)
                .build();
        List<Long> stamps = new ArrayList<>(records);
        ThreadCpu cpu = ThreadCpu.start(); // a throttled task thread waiting for permits: idle or spinning?
        long start = System.nanoTime();
        try (CloseableIterator<Long> it = env.fromSource(source, WatermarkStrategy.noWatermarks(), topic)
                .map(new Stamp())
                .executeAndCollect(topic)) {
            it.forEachRemaining(stamps::add);
        }
        double taskCpu = -1;
        if (cpu != null) {
            cpu.close();
            taskCpu = cpu.seconds("task") / ((System.nanoTime() - start) / 1e9);
        }
        if (stamps.size() != records) {
            throw new IllegalStateException("read " + stamps.size() + " of " + records + " records from " + topic);
        }
        List<Long> sorted = stamps.stream().sorted().toList();
        int half = sorted.size() / 2;
        double steady =
                (sorted.size() - half - 1) * 1000.0 / Math.max(1, sorted.get(sorted.size() - 1) - sorted.get(half));
        double whole = (sorted.size() - 1) * 1000.0 / Math.max(1, sorted.get(sorted.size() - 1) - sorted.get(0));
        return new Row(limit, stamps.size(), steady, whole, taskCpu);
    }

    /** When a record passed through the job, in epoch milliseconds. */
    static final class Stamp implements MapFunction<byte[], Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long map(byte[] value) {
            return System.currentTimeMillis();
        }
    }
}
