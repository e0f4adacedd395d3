package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSinkProperties;
import io.streamsplit.boot.autoconfigure.kafka.KafkaSourceProperties;
import io.streamsplit.boot.autoconfigure.kafka.format.ValueFormat;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;

/**
 * The configuration metadata an IDE shows: every {@code streamsplit.*} key has a description, and
 * the per-source and per-sink keys (map values, which the processor cannot see) are listed with
 * the same defaults the property classes really have.
 */
class ConfigurationMetadataTest {

    private static Map<String, JsonNode> metadata() throws Exception {
        try (InputStream in =
                ConfigurationMetadataTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            Map<String, JsonNode> byName = new HashMap<>();
            new ObjectMapper()
                    .readTree(in)
                    .get("properties")
                    .forEach(p -> byName.put(p.get("name").asText(), p));
            return byName;
        }
    }

    @Test
    void everyPropertyHasADescription() throws Exception {
        Map<String, JsonNode> metadata = metadata();
        assertThat(metadata).hasSizeGreaterThan(50);
        metadata.forEach(
                (name, property) -> assertThat(property.path("description").asText())
                        .as(name)
                        .isNotBlank()
                        .doesNotContain("*/", "private ")
                        .endsWith("."));
    }

    @Test
    void everySourceAndSinkPropertyIsDocumentedWithItsRealDefault() throws Exception {
        Map<String, JsonNode> metadata = metadata();
        checkDocumented(metadata, "streamsplit.kafka.sources.*.", new KafkaSourceProperties(), List.of("watermarks"));
        checkDocumented(
                metadata,
                "streamsplit.kafka.sources.*.watermarks.",
                new KafkaSourceProperties().getWatermarks(),
                List.of());
        checkDocumented(metadata, "streamsplit.kafka.sinks.*.", new KafkaSinkProperties(), List.of());
    }

    @Test
    void theFormatHintsOfferEveryFormatAndNoOther() throws Exception {
        try (InputStream in =
                ConfigurationMetadataTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            Map<String, List<String>> hints = new HashMap<>();
            new ObjectMapper()
                    .readTree(in)
                    .get("hints")
                    .forEach(hint -> hints.put(
                            hint.get("name").asText(), hint.path("values").findValuesAsText("value")));
            List<String> formats =
                    Arrays.stream(ValueFormat.values()).map(ValueFormat::yaml).toList();
            assertThat(hints.get("streamsplit.kafka.sources.*.format")).isEqualTo(formats);
            assertThat(hints.get("streamsplit.kafka.sinks.*.format")).isEqualTo(formats);
            assertThat(hints.get("streamsplit.kafka.sources.*.key-format")).containsExactly("string", "bytes");
        }
    }

    private static void checkDocumented(
            Map<String, JsonNode> metadata, String prefix, Object defaults, List<String> nested) throws Exception {
        for (PropertyDescriptor descriptor :
                Introspector.getBeanInfo(defaults.getClass(), Object.class).getPropertyDescriptors()) {
            String kebab = descriptor.getName().replaceAll("([A-Z])", "-$1").toLowerCase();
            if (nested.contains(kebab)) {
                continue;
            }
            JsonNode entry = metadata.get(prefix + kebab);
            assertThat(entry).as("metadata for " + prefix + kebab).isNotNull();
            Object value = descriptor.getReadMethod().invoke(defaults);
            String expected = expectedDefault(value);
            if (expected == null) {
                assertThat(entry.has("defaultValue"))
                        .as(prefix + kebab + " has no default")
                        .isFalse();
            } else if (value instanceof Duration duration) {
                assertThat(DurationStyle.detectAndParse(
                                entry.path("defaultValue").asText()))
                        .as(prefix + kebab)
                        .isEqualTo(duration);
            } else {
                assertThat(entry.path("defaultValue").asText())
                        .as(prefix + kebab + " default")
                        .isEqualTo(expected);
            }
        }
    }

    private static String expectedDefault(Object value) {
        if (value == null
                || value instanceof java.util.Collection<?> c && c.isEmpty()
                || value instanceof Map<?, ?> m && m.isEmpty()) {
            return null;
        }
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase().replace('_', '-');
        }
        return value.toString();
    }
}
