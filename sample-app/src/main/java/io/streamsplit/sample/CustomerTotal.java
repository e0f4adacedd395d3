package io.streamsplit.sample;

import java.time.Instant;

/**
 * A customer's orders in one event-time window, written as JSON by {@code format: json}:
 * {@code {"customer":"alice","windowStart":"2023-11-14T22:13:20Z","windowEnd":"...","orders":3,"totalCents":320}}.
 */
public class CustomerTotal {

    public String customer;
    public Instant windowStart;
    public Instant windowEnd;
    public long orders;
    public long totalCents;

    public CustomerTotal() {}

    public CustomerTotal(String customer, Instant windowStart, Instant windowEnd, long orders, long totalCents) {
        this.customer = customer;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.orders = orders;
        this.totalCents = totalCents;
    }
}
