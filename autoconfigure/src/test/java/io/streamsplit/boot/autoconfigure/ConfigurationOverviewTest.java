package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The annotated {@code application.yml} at the top of docs/configuration.md is the overview a reader scans:
 * it lists every key of the configuration metadata (a new property without its line fails here), and every
 * default it shows — a value on a line that does not say "example" — is the default the metadata (the
 * property classes) has.
 */
class ConfigurationOverviewTest {

    private static final Path PAGE = Path.of("../docs/configuration.md");
    private static final Pattern LINE = Pattern.compile("^( *)([a-z][a-z0-9-]*):(?: +([^#]*?))?\\s*(#.*)?$");
    /** Names of map entries in the overview (a source, a sink, a step) that stand for any name. */
    private static final Map<String, String> NAMED = Map.of(
            "streamsplit.kafka.sources.", "*",
            "streamsplit.kafka.sinks.", "*",
            "streamsplit.processing-errors.steps.", "*");

    private record Shown(String value, boolean example) {}

    @Test
    void theOverviewListsEveryPropertyWithTheDefaultItHas() throws IOException {
        Map<String, Shown> shown = overview();
        Map<String, JsonNode> metadata = metadata();

        TreeSet<String> missing = new TreeSet<>(metadata.keySet());
        missing.removeIf(shown::containsKey);
        missing.removeIf(name -> underAMap(name, shown));
        assertThat(missing)
                .as("keys of the metadata that docs/configuration.md's overview does not show")
                .isEmpty();

        List<String> wrong = new ArrayList<>();
        shown.forEach((name, line) -> {
            JsonNode property = metadata.get(name);
            if (property == null || line.example() || line.value().isEmpty() || !property.has("defaultValue")) {
                return;
            }
            String expected = property.get("defaultValue").asText();
            if (!same(line.value(), expected)) {
                wrong.add(name + ": the overview shows " + line.value() + ", the default is " + expected);
            }
        });
        assertThat(wrong).as("defaults in docs/configuration.md's overview").isEmpty();
    }

    /** The keys of a map property (properties: {}, flink.configuration) are the user's, not the metadata's. */
    private static boolean underAMap(String name, Map<String, Shown> shown) {
        return shown.keySet().stream()
                .anyMatch(key ->
                        name.startsWith(key + ".") && shown.get(key).value().equals("{}"));
    }

    /** Default and written value mean the same: 10s and PT10S, a list and its comma form, case of enum names. */
    private static boolean same(String written, String expected) {
        String a = written.replace("\"", "")
                .trim()
                .toLowerCase(java.util.Locale.ROOT)
                .replace('_', '-');
        String b = expected.trim().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        return a.equals(b) || a.replace(" ", "").equals(b.replace(" ", ""));
    }

    /** The overview's keys, flattened with a source's, sink's or step's name as {@code *}, and what each shows. */
    private static Map<String, Shown> overview() throws IOException {
        String page = Files.readString(PAGE);
        int start = page.indexOf("```yaml\nstreamsplit:\n");
        assertThat(start)
                .as("docs/configuration.md starts its overview with a yaml block of streamsplit:")
                .isNotNegative();
        String block = page.substring(start + "```yaml\n".length(), page.indexOf("```", start + 7));
        Map<String, Shown> keys = new LinkedHashMap<>();
        List<String> path = new ArrayList<>();
        List<Integer> indents = new ArrayList<>();
        for (String line : block.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue; // a comment line, or a continued comment
            }
            int indent = m.group(1).length();
            while (!indents.isEmpty() && indents.get(indents.size() - 1) >= indent) {
                indents.remove(indents.size() - 1);
                path.remove(path.size() - 1);
            }
            String parent = String.join(".", path) + (path.isEmpty() ? "" : ".");
            String key = NAMED.containsKey(parent) ? NAMED.get(parent) : m.group(2);
            path.add(key);
            indents.add(indent);
            String value = m.group(3) == null ? "" : m.group(3).trim();
            String comment = m.group(4) == null ? "" : m.group(4);
            keys.put(String.join(".", path), new Shown(value, comment.startsWith("# example")));
        }
        return keys;
    }

    /** Every property of the starter's metadata (generated and additional), by name. */
    private static Map<String, JsonNode> metadata() throws IOException {
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        try (InputStream in =
                ConfigurationOverviewTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            new ObjectMapper()
                    .readTree(in)
                    .get("properties")
                    .forEach(p -> byName.put(p.get("name").asText(), p));
        }
        byName.keySet().removeIf(name -> !name.startsWith("streamsplit."));
        return byName;
    }
}
