package io.streamsplit.boot.autoconfigure.kafka.format;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.connector.kafka.format.ConfluentJsonFormat;
import io.streamsplit.connector.kafka.format.JsonFormat;
import io.streamsplit.connector.kafka.format.SchemaRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The schema registry of the Confluent wire formats ({@code streamsplit.kafka.schema-registry}), built
 * once; the JSON Schema format ({@code format: json-schema-confluent}); and the check at startup that a
 * sink's subject takes its schema. Avro-free: the Avro format's half is {@link AvroSchemas}.
 */
final class ConfluentSchemas {

    private static final Logger LOG = LoggerFactory.getLogger(ConfluentSchemas.class);
    private static final String URL = RegistrySettings.PREFIX + "url";

    private final RegistrySettings settings;
    private @Nullable SchemaRegistry registry;

    ConfluentSchemas(RegistrySettings settings) {
        this.settings = settings;
    }

    /** The reader of {@code format: json-schema-confluent}. */
    ConfluentJsonFormat<?> jsonReader(String p, JsonFormat<?> json) {
        return ConfluentJsonFormat.of(json, registry(p));
    }

    /** The writer of {@code format: json-schema-confluent}: {@code schema} is the JSON Schema it registers. */
    @Nullable
    ConfluentJsonFormat<?> jsonWriter(String p, JsonFormat<?> json, @Nullable Resource schema, @Nullable String topic) {
        SchemaRegistry registry = registry(p);
        if (schema == null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "schema",
                    null,
                    "format json-schema-confluent writes with a JSON Schema it registers, and none is set",
                    "Set " + p + "schema to the JSON Schema of the elements, e.g. classpath:total.schema.json.");
        }
        String text = jsonSchema(p, schema);
        if (topic == null) {
            return null;
        }
        String subject = topic + "-value";
        if (settings.check()) {
            checkSubject(p, "json-schema-confluent", subject, text, "JSON", schema.getDescription());
        }
        return ConfluentJsonFormat.of(json, registry).forSubject(subject, text, settings.autoRegister());
    }

    private static String jsonSchema(String p, Resource schema) {
        if (!schema.exists()) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "schema",
                    schema.getDescription(),
                    "the schema resource does not exist",
                    "Check the location: classpath:total.schema.json is src/main/resources/total.schema.json.");
        }
        try (InputStream in = schema.getInputStream()) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (!JsonMapper.shared().readTree(text).isObject()) {
                throw new IOException("it is JSON, but not an object");
            }
            return text;
        } catch (IOException | JacksonException e) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "schema",
                    schema.getDescription(),
                    "the schema is not a JSON Schema (a JSON object): " + e.getMessage(),
                    "Fix the file: a JSON Schema such as {\"type\":\"object\",\"properties\":{...}}.",
                    e);
        }
    }

    /** Why the registry cannot be used, or empty when it answers. */
    Optional<String> unreachable() {
        try {
            registry(URL).check();
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(String.valueOf(e.getMessage()));
        }
    }

    boolean checks() {
        return settings.check();
    }

    boolean autoRegister() {
        return settings.autoRegister();
    }

    /**
     * Whether the registry would take this sink's {@code schema} under its subject (the compatibility rule;
     * with auto-register off, that it is registered); a registry that does not answer is reported by the
     * startup check.
     */
    void checkSubject(String p, String format, String subject, String schema, String type, String schemaName) {
        String problem;
        String action;
        try {
            if (settings.autoRegister()) {
                Optional<String> incompatible = registry(p).incompatibility(subject, schema, type);
                if (incompatible.isEmpty()) {
                    return;
                }
                problem = "the registry refuses " + schemaName + " as the next version of subject " + subject + ": "
                        + incompatible.get();
                action = "Evolve the schema the way the subject's compatibility rule allows (a new field needs a"
                        + " default), or change the rule in the registry.";
            } else {
                if (registry(p).lookup(subject, schema, type).isPresent()) {
                    return;
                }
                problem = schemaName + " is not registered under subject " + subject + ", and "
                        + RegistrySettings.PREFIX + "auto-register is false";
                action = "Register the schema under " + subject + ", or set " + RegistrySettings.PREFIX
                        + "auto-register=true.";
            }
        } catch (IOException e) {
            return; // the startup check reports a registry that does not answer
        }
        if (settings.failOnProblem()) {
            throw new InvalidStreamSplitConfigurationException(p + "format", format, problem, action);
        }
        LOG.warn(
                "Schema registry startup check: {}format = '{}': {}. {} (streamsplit.kafka.startup-check.mode=warn:"
                        + " starting anyway)",
                p,
                format,
                problem,
                action);
    }

    /** The registry of {@code streamsplit.kafka.schema-registry}; {@code p} names the format that needs it in errors. */
    SchemaRegistry registry(String p) {
        if (registry != null) {
            return registry;
        }
        String url = settings.url();
        if (url == null || url.isBlank()) {
            throw new InvalidStreamSplitConfigurationException(
                    URL,
                    null,
                    "the Confluent wire format (" + p + "format) reads schema ids from a schema registry, and none"
                            + " is set",
                    "Set " + URL + " to the registry's URL, e.g. http://registry:8081.");
        }
        SchemaRegistry built;
        try {
            built = SchemaRegistry.at(url);
        } catch (IllegalArgumentException e) {
            throw new InvalidStreamSplitConfigurationException(
                    URL,
                    url,
                    String.valueOf(e.getMessage()),
                    "Use the registry's base URL(s), e.g. http://registry:8081.",
                    e);
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
