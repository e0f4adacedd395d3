package io.streamsplit.boot.autoconfigure.kafka.format;

import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/** An Avro SpecificRecord of avro/payment.avsc, written the way avro-maven-plugin generates one. */
public class Payment extends SpecificRecordBase {

    public static final Schema SCHEMA$ = new Schema.Parser()
            .parse(
                    "{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"io.streamsplit.boot.autoconfigure.kafka.format\","
                            + "\"fields\":[{\"name\":\"payer\",\"type\":\"string\"},{\"name\":\"cents\",\"type\":\"long\"}]}");

    private String payer;
    private long cents;

    public Payment() {}

    public Payment(String payer, long cents) {
        this.payer = payer;
        this.cents = cents;
    }

    public static Schema getClassSchema() {
        return SCHEMA$;
    }

    @Override
    public Schema getSchema() {
        return SCHEMA$;
    }

    @Override
    public Object get(int field) {
        return switch (field) {
            case 0 -> payer;
            case 1 -> cents;
            default -> throw new IndexOutOfBoundsException(field);
        };
    }

    @Override
    public void put(int field, Object value) {
        switch (field) {
            case 0 -> payer = value == null ? null : value.toString();
            case 1 -> cents = (Long) value;
            default -> throw new IndexOutOfBoundsException(field);
        }
    }

    public String getPayer() {
        return payer;
    }

    public void setPayer(String payer) {
        this.payer = payer;
    }

    public long getCents() {
        return cents;
    }

    public void setCents(long cents) {
        this.cents = cents;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Payment p && Objects.equals(payer, p.payer) && cents == p.cents;
    }

    @Override
    public int hashCode() {
        return Objects.hash(payer, cents);
    }

    @Override
    public String toString() {
        return "Payment(" + payer + ", " + cents + ")";
    }
}
