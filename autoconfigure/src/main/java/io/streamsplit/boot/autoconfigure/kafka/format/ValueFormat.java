package io.streamsplit.boot.autoconfigure.kafka.format;

/** A built-in format of Kafka values (and keys), {@code format: json}. */
public enum ValueFormat {
    /** JSON through Jackson 3 and the application's JsonMapper, into the class in {@code type}. */
    JSON,
    /** Avro binary: a SpecificRecord {@code type}, or GenericRecord of a {@code schema}. */
    AVRO,
    /** Text in {@code charset} (UTF-8 by default). */
    STRING,
    /** The bytes as they are, byte[]. */
    BYTES;

    /** As written in YAML: {@code json}. */
    public String yaml() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
