package io.streamsplit.benchmarks.app;

import java.time.Duration;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * One-minute tumbling windows on event time per account (profile {@code windows}): the payments of each
 * account and minute counted and summed, one record when the watermark passes the window's end.
 */
public final class WindowTotals {

    private WindowTotals() {}

    /** payments (with event-time watermarks) → one total per account and minute. */
    public static DataStream<WindowTotal> of(DataStream<Payment> payments) {
        return payments.keyBy(Payment::account)
                .window(TumblingEventTimeWindows.of(Duration.ofMinutes(1)))
                .aggregate(new CountAndSum(), new WithWindow())
                .uid("window-totals")
                .name("one-minute totals");
    }

    /** The window's count and sum so far: {@code {count, sum}}. */
    static final class CountAndSum implements AggregateFunction<Payment, long[], long[]> {
        private static final long serialVersionUID = 1L;

        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Payment payment, long[] sofar) {
            sofar[0]++;
            sofar[1] += payment.amount();
            return sofar;
        }

        @Override
        public long[] getResult(long[] sofar) {
            return sofar;
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0], a[1] + b[1]};
        }
    }

    /** The window's count and sum with its account and start. */
    static final class WithWindow extends ProcessWindowFunction<long[], WindowTotal, String, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(String account, Context context, Iterable<long[]> results, Collector<WindowTotal> out) {
            long[] result = results.iterator().next();
            out.collect(new WindowTotal(account, context.window().getStart(), result[0], result[1]));
        }
    }
}
