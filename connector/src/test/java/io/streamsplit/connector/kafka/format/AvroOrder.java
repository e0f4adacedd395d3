package io.streamsplit.connector.kafka.format;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;

/** A SpecificRecord written by hand the way avro-maven-plugin generates one (schema, get/put, bean accessors). */
public class AvroOrder extends SpecificRecordBase {

    public static final Schema SCHEMA$ = new Schema.Parser()
            .parse(
                    "{\"type\":\"record\",\"name\":\"AvroOrder\",\"namespace\":\"io.streamsplit.connector.kafka.format\","
                            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"long\"}]}");

    private String id;
    private long amount;

    public AvroOrder() {}

    public AvroOrder(String id, long amount) {
        this.id = id;
        this.amount = amount;
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
            case 0 -> id;
            case 1 -> amount;
            default -> throw new IndexOutOfBoundsException(field);
        };
    }

    @Override
    public void put(int field, Object value) {
        switch (field) {
            case 0 -> id = value == null ? null : value.toString();
            case 1 -> amount = (Long) value;
            default -> throw new IndexOutOfBoundsException(field);
        }
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public long getAmount() {
        return amount;
    }

    public void setAmount(long amount) {
        this.amount = amount;
    }
}
