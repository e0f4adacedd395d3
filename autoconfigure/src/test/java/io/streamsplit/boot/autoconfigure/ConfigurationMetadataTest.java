package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamsplit.boot.kafka.ValueFormat;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The configuration metadata an IDE shows: every {@code streamsplit.*} key has a description, and
 * the per-source and per-sink keys (map values, which the processor cannot see) are listed with
 * the same defaults the property classes really have.
 */
class ConfigurationMetadataTest {

    private static final Path ADDITIONAL_METADATA =
            Path.of("src/main/resources/META-INF/additional-spring-configuration-metadata.json");
    private static final Path CONFIGURATION_DOCS = Path.of("../docs/configuration.md");
    private static final String TABLE_START =
            "<!-- generated from the property classes by ConfigurationMetadataTest -->";
    private static final String TABLE_END = "<!-- end of generated table -->";
    private static final String REGENERATE = "derived from KafkaSourceProperties, the connector's SourceOptions,"
            + " SourceWatermarks and KafkaSinkProperties; rewrite with: mvn -B -pl autoconfigure test -Dtest=ConfigurationMetadataTest"
            + " -Dstreamsplit.metadata.write=true";

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

    /**
     * The per-source and per-sink keys (map values, which Spring Boot's processor cannot see) are declared
     * once, as fields of their property classes; the metadata file and the docs' reference table are derived
     * from those fields. Run with {@code -Dstreamsplit.metadata.write=true} to rewrite both.
     */
    @Test
    void perSourceAndSinkKeysAreDerivedFromTheirPropertyClasses() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode file = (ObjectNode) json.readTree(ADDITIONAL_METADATA.toFile());
        List<PerNameMetadata.Entry> entries = PerNameMetadata.entries();
        JsonNode derived = json.valueToTree(
                entries.stream().map(PerNameMetadata.Entry::toJson).toList());
        String docs = Files.readString(CONFIGURATION_DOCS);
        int start = docs.indexOf(TABLE_START);
        int end = docs.indexOf(TABLE_END);
        assertThat(start)
                .as("docs/configuration.md has the markers of the generated table")
                .isPositive();
        Map<String, List<String>> hints = new HashMap<>();
        file.path("hints").forEach(hint -> {
            List<String> values = hint.path("values").findValuesAsText("value");
            if (!values.isEmpty()) {
                hints.put(hint.get("name").asText(), values);
            }
        });
        String derivedDocs = docs.substring(0, start + TABLE_START.length()) + "\n"
                + PerNameMetadata.markdown(entries, hints) + docs.substring(end);
        if (Boolean.getBoolean("streamsplit.metadata.write")) {
            file.set("properties", derived);
            json.writerWithDefaultPrettyPrinter().writeValue(ADDITIONAL_METADATA.toFile(), file);
            Files.writeString(CONFIGURATION_DOCS, derivedDocs);
            docs = derivedDocs;
        }
        assertThat(file.get("properties")).as(REGENERATE).isEqualTo(derived);
        assertThat(docs).as(REGENERATE).isEqualTo(derivedDocs);
        assertThat(entries)
                .extracting(PerNameMetadata.Entry::name)
                .contains("streamsplit.kafka.sources.*.client-rack", "streamsplit.kafka.sinks.*.delivery-guarantee");
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
}
