package io.streamsplit.benchmarks.app;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.ReduceFunction;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The running total per account, the same operators in the starter's pipeline ({@link
 * UppercaseApplication}, profile {@code totals}) and in the hand-wired job ({@link HandWiredTotalsJob}):
 * each payment updates its account's total (keyed state) and writes it.
 */
public final class RunningTotals {

    private RunningTotals() {}

    /** payments → one total per payment. */
    public static DataStream<Total> of(DataStream<Payment> payments) {
        return payments.map(new ToTotal())
                .name("to total")
                .keyBy(new ByAccount())
                .reduce(new Add())
                .uid("running-total")
                .name("running total");
    }

    static final class ToTotal implements MapFunction<Payment, Total> {
        private static final long serialVersionUID = 1L;

        @Override
        public Total map(Payment payment) {
            return new Total(payment.account(), payment.amount(), payment.id());
        }
    }

    static final class ByAccount implements KeySelector<Total, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(Total total) {
            return total.account();
        }
    }

    static final class Add implements ReduceFunction<Total> {
        private static final long serialVersionUID = 1L;

        @Override
        public Total reduce(Total sofar, Total next) {
            return new Total(sofar.account(), sofar.total() + next.total(), next.lastId());
        }
    }
}
