package io.streamsplit.sample;

import java.time.Instant;

/** A customer's orders in one event-time window. */
public class CustomerTotal {

    public String customer;
    public long windowStart;
    public long windowEnd;
    public long orders;
    public long totalCents;

    public CustomerTotal() {}

    public CustomerTotal(String customer, long windowStart, long windowEnd, long orders, long totalCents) {
        this.customer = customer;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.orders = orders;
        this.totalCents = totalCents;
    }

    /** The record written to the output topic: one JSON object. */
    public String toJson() {
        return "{\"customer\":\"" + customer + "\",\"windowStart\":\"" + Instant.ofEpochMilli(windowStart)
                + "\",\"windowEnd\":\"" + Instant.ofEpochMilli(windowEnd) + "\",\"orders\":" + orders
                + ",\"totalCents\":" + totalCents + "}";
    }
}
