package io.streamsplit.boot.autoconfigure.kafka.format;

import org.jspecify.annotations.Nullable;

/**
 * {@code streamsplit.kafka.schema-registry.*} as format avro-confluent needs it: the SSL bundle already
 * turned into PEM certificates (they travel with the job), and what the startup check does with a
 * problem it finds.
 *
 * @param url the registry's base URL(s), comma-separated
 * @param username basic-auth user
 * @param password basic-auth password
 * @param trustedCertificates PEM certificates of the SSL bundle's trust store
 * @param autoRegister whether sinks register their schema
 * @param check whether startup checks the registry (startup-check.mode not off)
 * @param failOnProblem whether a problem fails startup (mode fail) rather than being logged (warn)
 */
public record RegistrySettings(
        @Nullable String url,
        @Nullable String username,
        @Nullable String password,
        @Nullable String trustedCertificates,
        boolean autoRegister,
        boolean check,
        boolean failOnProblem) {

    /** The property prefix. */
    public static final String PREFIX = "streamsplit.kafka.schema-registry.";
}
