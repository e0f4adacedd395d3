package io.streamsplit.boot.autoconfigure.diagnostics;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What leaving a {@code streamsplit.*} property unset means, as its description in the configuration metadata
 * says it ("… Unset: unbounded."): the answer to a value written for "nothing", such as {@code
 * stopping-offsets: none}. Per-source and per-sink keys are found by their {@code *} form.
 */
final class UnsetMeanings {

    private static final Pattern UNSET = Pattern.compile("Unset: ([^.]+(?:\\.\\d[^.]*)*)\\.");
    private static final Pattern NAMED = Pattern.compile(
            "^(streamsplit\\.(?:kafka\\.sources|kafka\\.sinks|processing-errors\\.steps)\\.)[^.]+(\\..+)$");
    private static final String[] FILES = {
        "META-INF/spring-configuration-metadata.json", "META-INF/additional-spring-configuration-metadata.json"
    };

    private UnsetMeanings() {}

    /** What property {@code name} means when unset, e.g. {@code unbounded}; empty when its description does not say. */
    static Optional<String> of(String name) {
        Matcher named = NAMED.matcher(name);
        String generic = named.matches() ? named.group(1) + "*" + named.group(2) : name;
        for (String file : FILES) {
            try (InputStream in = UnsetMeanings.class.getClassLoader().getResourceAsStream(file)) {
                if (in == null) {
                    continue;
                }
                for (JsonNode property : new ObjectMapper().readTree(in).path("properties")) {
                    String candidate = property.path("name").asText();
                    if (candidate.equals(name) || candidate.equals(generic)) {
                        Matcher unset =
                                UNSET.matcher(property.path("description").asText());
                        if (unset.find()) {
                            return Optional.of(unset.group(1));
                        }
                    }
                }
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
