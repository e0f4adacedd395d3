package io.streamsplit.sample;

/**
 * A refund, read from JSON by {@code format: json} with no code of ours:
 * {@code {"refundId":"r-1","customer":"alice","amountCents":30}}. Its event time is the record's
 * timestamp.
 */
public record Refund(String refundId, String customer, long amountCents) {

    /** The refund as an order with a negative amount, for the totals. */
    public Order asOrder() {
        return new Order(refundId, customer, -amountCents, 0);
    }
}
