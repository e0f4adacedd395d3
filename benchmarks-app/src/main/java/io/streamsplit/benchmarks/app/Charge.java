package io.streamsplit.benchmarks.app;

import org.apache.flink.api.common.functions.MapFunction;

/** A payment as a charge in cents: the output of the transform pipeline (profile {@code transform}). */
public record Charge(long id, String account, long cents, String currency) {

    /** payment → charge, the pipeline's one operator. */
    static final class Of implements MapFunction<Payment, Charge> {
        private static final long serialVersionUID = 1L;

        @Override
        public Charge map(Payment payment) {
            return new Charge(payment.id(), payment.account(), payment.amount() * 100, "EUR");
        }
    }
}
