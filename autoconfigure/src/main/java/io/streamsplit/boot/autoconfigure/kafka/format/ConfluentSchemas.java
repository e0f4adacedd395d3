package io.streamsplit.boot.autoconfigure.kafka.format;

import io.streamsplit.boot.autoconfigure.diagnostics.InvalidStreamSplitConfigurationException;
import io.streamsplit.connector.kafka.format.AvroFormat;
import io.streamsplit.connector.kafka.format.ConfluentAvroFormat;
import io.streamsplit.connector.kafka.format.SchemaRegistry;
import java.io.IOException;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;

/**
 * {@link ConfluentAvroFormat}s of {@code format: avro-confluent}: the same type and schema rules as
 * {@code format: avro} ({@link AvroSchemas}), the registry of {@code streamsplit.kafka.schema-registry},
 * and for sinks the subject {@code <topic>-value} checked against the registry at startup.
 */
final class ConfluentSchemas {

    private static final Logger LOG = LoggerFactory.getLogger(ConfluentSchemas.class);
    private static final String URL = RegistrySettings.PREFIX + "url";

    private final RegistrySettings settings;
    private @Nullable SchemaRegistry registry;

    ConfluentSchemas(RegistrySettings settings) {
        this.settings = settings;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    ConfluentAvroFormat<?> reader(String p, @Nullable Class<?> type, @Nullable Resource schema) {
        AvroFormat<?> avro = AvroSchemas.reader(p, ValueFormat.AVRO_CONFLUENT, type, schema);
        return type != null && SpecificRecord.class.isAssignableFrom(type)
                ? ConfluentAvroFormat.specific((Class) type, registry(p))
                : ConfluentAvroFormat.generic(avro.schema(), registry(p));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Nullable
    ConfluentAvroFormat<?> writer(
            String p, @Nullable Class<?> elementClass, @Nullable Resource schema, @Nullable String topic) {
        AvroFormat<?> avro = AvroSchemas.writer(p, ValueFormat.AVRO_CONFLUENT, elementClass, schema);
        SchemaRegistry registry = registry(p);
        if (avro == null || topic == null) {
            return null;
        }
        ConfluentAvroFormat<?> format = elementClass != null && SpecificRecord.class.isAssignableFrom(elementClass)
                ? ConfluentAvroFormat.specific((Class) elementClass, registry)
                : ConfluentAvroFormat.generic(avro.schema(), registry);
        String subject = topic + "-value";
        if (settings.check()) {
            checkSubject(p, subject, avro.schema());
        }
        return format.forSubject(subject, settings.autoRegister());
    }

    /** Why the registry cannot be used, or empty when it answers. */
    Optional<String> unreachable() {
        try {
            registry(URL).check();
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The configured URL. */
    @Nullable
    String url() {
        return settings.url();
    }

    /** Whether the registry would take this sink's schema under its subject; a registry that does not answer is reported by the startup check. */
    private void checkSubject(String p, String subject, Schema schema) {
        String problem;
        String action;
        try {
            if (settings.autoRegister()) {
                Optional<String> incompatible = registry(p).incompatibility(subject, schema.toString(), "AVRO");
                if (incompatible.isEmpty()) {
                    return;
                }
                problem = "the registry refuses " + schema.getFullName() + " as the next version of subject " + subject
                        + ": " + incompatible.get();
                action = "Evolve the schema the way the subject's compatibility rule allows (a new field needs a"
                        + " default), or change the rule in the registry.";
            } else {
                if (registry(p).lookup(subject, schema.toString(), "AVRO").isPresent()) {
                    return;
                }
                problem = schema.getFullName() + " is not registered under subject " + subject + ", and "
                        + RegistrySettings.PREFIX + "auto-register is false";
                action = "Register the schema under " + subject + ", or set " + RegistrySettings.PREFIX
                        + "auto-register=true.";
            }
        } catch (IOException e) {
            return; // the startup check reports a registry that does not answer
        }
        if (settings.failOnProblem()) {
            throw new InvalidStreamSplitConfigurationException(p + "format", "avro-confluent", problem, action);
        }
        LOG.warn(
                "Schema registry startup check: {}format = 'avro-confluent': {}. {} (streamsplit.kafka.startup-check"
                        + ".mode=warn: starting anyway)",
                p,
                problem,
                action);
    }

    private SchemaRegistry registry(String p) {
        if (registry != null) {
            return registry;
        }
        String url = settings.url();
        if (url == null || url.isBlank()) {
            throw new InvalidStreamSplitConfigurationException(
                    URL,
                    null,
                    "format avro-confluent (" + p + "format) reads schema ids from a schema registry, and none is set",
                    "Set " + URL + " to the registry's URL, e.g. http://registry:8081.");
        }
        SchemaRegistry built;
        try {
            built = SchemaRegistry.at(url);
        } catch (IllegalArgumentException e) {
            throw new InvalidStreamSplitConfigurationException(
                    URL, url, e.getMessage(), "Use the registry's base URL(s), e.g. http://registry:8081.", e);
        }
        if (settings.username() != null) {
            if (settings.password() == null) {
                throw new InvalidStreamSplitConfigurationException(
                        RegistrySettings.PREFIX + "password",
                        null,
                        "a username is set for the schema registry, but no password",
                        "Set " + RegistrySettings.PREFIX + "password too, or remove the username.");
            }
            built = built.withBasicAuth(settings.username(), settings.password());
        }
        if (settings.trustedCertificates() != null) {
            built = built.withTrustedCertificates(settings.trustedCertificates());
        }
        registry = built;
        return built;
    }
}
