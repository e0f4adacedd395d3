package io.streamsplit.benchmarks.kstreams;

/** A payment as a charge in cents: the output of topology {@code transform}. */
public record Charge(long id, String account, long cents, String currency) {

    /** The charge of one payment. */
    static Charge of(Payment payment) {
        return new Charge(payment.id(), payment.account(), payment.amount() * 100, "EUR");
    }
}
