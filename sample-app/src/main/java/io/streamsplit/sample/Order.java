package io.streamsplit.sample;

/**
 * One order (a refund is an order with a negative amount). A Flink POJO: public fields and a
 * no-argument constructor, so Flink serializes it without Kryo and Java 17 needs no --add-opens.
 */
public class Order {

    public String orderId;
    public String customer;
    public long amountCents;
    public long timestamp;

    public Order() {}

    public Order(String orderId, String customer, long amountCents, long timestamp) {
        this.orderId = orderId;
        this.customer = customer;
        this.amountCents = amountCents;
        this.timestamp = timestamp;
    }

    /** Parses {@code orderId;customer;amountCents;epochMillis}. */
    public static Order parse(String line) {
        String[] fields = line.trim().split(";");
        if (fields.length != 4) {
            throw new IllegalArgumentException(
                    "expected orderId;customer;amountCents;epochMillis but got '" + line + "'");
        }
        return new Order(fields[0], fields[1], Long.parseLong(fields[2]), Long.parseLong(fields[3]));
    }

    /** The line {@link #parse} reads. */
    public String format() {
        return orderId + ";" + customer + ";" + amountCents + ";" + timestamp;
    }
}
