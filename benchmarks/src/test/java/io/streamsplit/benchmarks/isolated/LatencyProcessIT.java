package io.streamsplit.benchmarks.isolated;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.benchmarks.LatencyBenchmark;
import io.streamsplit.benchmarks.LatencyBenchmark.Histogram;
import io.streamsplit.benchmarks.LatencyBenchmark.Percentiles;
import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The latency harness's floor run: a plain consumer measures every counted record of all partitions
 * and none of the warm-up records, as the jobs' map does.
 */
class LatencyProcessIT {

    @Test
    void floorConsumerMeasuresEveryCountedRecordAndNoWarmUpRecord() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
            broker.createTopic("floor", 3);
            // 1 s of warm-up records, then 1 s counted, at 500 records/s
            long counted = LatencyBenchmark.produce(broker.bootstrapServers(), "floor", 500, 1, 1, 100);
            assertThat(counted).isEqualTo(500);

            Histogram.reset();
            LatencyProcess.consume(
                    broker.bootstrapServers(), "floor", counted, System.nanoTime() + TimeUnit.SECONDS.toNanos(60));

            Percentiles p = Histogram.percentiles();
            assertThat(p.count()).isEqualTo(500);
            assertThat(p.p50()).isPositive().isLessThanOrEqualTo(p.p99());
            assertThat(p.p99()).isLessThanOrEqualTo(p.max());
        }
    }
}
