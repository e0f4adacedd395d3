package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.connector.kafka.source.option.SourceOption;
import io.streamsplit.connector.kafka.source.option.SourceOptions;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.origin.OriginTrackedValue;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

/**
 * The samples in README.md and docs/ are honest: every YAML block binds to {@code streamsplit.*}
 * without an unknown key, and every Java block is a whole compilation unit (imports included) that
 * compiles against the starter, the connector and the pipeline API.
 */
public class DocsSamplesTest {

    private static final Pattern BLOCK = Pattern.compile("```(yaml|java)\\n(.*?)```", Pattern.DOTALL);

    /**
     * The README and every docs page the starter's classpath can compile (the test kit checks its own page;
     * GettingStartedIT builds and runs the getting-started page's project).
     */
    static Stream<Path> pages() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
            docs.filter(p -> p.toString().endsWith(".md")
                            && !p.getFileName().toString().equals("testing.md")
                            && !p.getFileName().toString().equals("getting-started.md"))
                    .sorted()
                    .forEach(pages::add);
            return pages.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("pages")
    void yamlSamplesBindWithoutUnknownKeys(Path page) throws IOException {
        yamlSamplesBind(page);
    }

    /** Pages whose Java needs more than the starter (operations.md: Spring Security), checked where it compiles. */
    private static final List<String> JAVA_CHECKED_ELSEWHERE = List.of("operations.md");

    @ParameterizedTest
    @MethodSource("pages")
    void javaSamplesCompileWithTheirImports(Path page, @TempDir Path classes) throws IOException {
        if (!JAVA_CHECKED_ELSEWHERE.contains(page.getFileName().toString())) {
            javaSamplesCompile(page, classes);
        }
    }

    /** Every YAML block of {@code page} binds to {@code streamsplit.*} without an unknown key. */
    public static void yamlSamplesBind(Path page) throws IOException {
        for (String yaml : blocks(page, "yaml")) {
            List<PropertySource<?>> sources = new YamlPropertySourceLoader()
                    .load(page.getFileName().toString(), new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)));
            // a key shown without a value documents an unset default: it must exist, but binds to nothing
            List<PropertySource<?>> withValues = new ArrayList<>();
            for (PropertySource<?> source : sources) {
                Map<String, Object> values = new LinkedHashMap<>();
                ((MapPropertySource) source).getSource().forEach((key, tracked) -> {
                    Object value = tracked instanceof OriginTrackedValue origin ? origin.getValue() : tracked;
                    SourceOption<?> declared = declaredOption(key);
                    if (String.valueOf(value).isEmpty()) {
                        assertThat(isProperty(key))
                                .as("%s: %s is a streamsplit.* property", page, key)
                                .isTrue();
                    } else if (declared != null) {
                        // a source's declared setting: bound by its key, not by StreamSplitProperties
                        assertDeclaredOptionBinds(page, key, value, declared);
                    } else if (key.endsWith(".type") && String.valueOf(value).startsWith("com.example.")) {
                        // an element class of the page's own example (com.example.*): not on this classpath
                        values.put(key, Object.class.getName());
                    } else {
                        values.put(key, value);
                    }
                });
                withValues.add(new MapPropertySource(source.getName(), values));
            }
            Binder binder = new Binder(ConfigurationPropertySources.from(withValues));
            BindHandler strict = new NoUnboundElementsBindHandler(BindHandler.DEFAULT);
            binder.bind("streamsplit", Bindable.ofInstance(new StreamSplitProperties()), strict);
        }
    }

    /** The declared source setting ({@link SourceOptions}) {@code key} sets, or {@code null}. */
    private static @Nullable SourceOption<?> declaredOption(String key) {
        String sources = "streamsplit.kafka.sources.";
        if (!key.startsWith(sources) || key.indexOf('.', sources.length()) < 0) {
            return null;
        }
        String own = key.substring(key.indexOf('.', sources.length()) + 1);
        return SourceOptions.all().stream()
                .filter(option -> option.key().equals(own))
                .findFirst()
                .orElse(null);
    }

    private static <T> void assertDeclaredOptionBinds(Path page, String key, Object value, SourceOption<T> option) {
        T bound = new Binder(new MapConfigurationPropertySource(Map.of(key, value)))
                .bind(key, option.type())
                .get();
        assertThat(option.allows(bound))
                .as("%s: %s = %s is %s", page, key, value, option.requirement())
                .isTrue();
    }

    /** Every Java block of {@code page} is a whole compilation unit that compiles against the test classpath. */
    public static void javaSamplesCompile(Path page, Path classes) throws IOException {
        List<JavaFileObject> units = new ArrayList<>();
        for (String java : blocks(page, "java")) {
            assertThat(java)
                    .as("a Java sample in %s shows its package and imports:%n%s", page, java)
                    .startsWith("package ");
            units.add(new Source(java));
        }
        if (units.isEmpty()) {
            return;
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean compiled = compiler.getTask(
                        diagnostics,
                        null,
                        null,
                        List.of(
                                "-d",
                                classes.toString(),
                                "-classpath",
                                System.getProperty("java.class.path"),
                                "-proc:none"),
                        null,
                        units)
                .call();
        assertThat(compiled)
                .as("the Java samples of %s compile:%n%s", page, diagnostics)
                .isTrue();
    }

    /** Whether {@code key} names a property (map keys and the passthrough maps included); other prefixes pass. */
    private static boolean isProperty(String key) {
        return !key.startsWith("streamsplit.")
                || UnknownPropertyCheck.problem(ConfigurationPropertyName.of(key)) == null;
    }

    private static List<String> blocks(Path page, String language) throws IOException {
        Matcher block = BLOCK.matcher(Files.readString(page));
        List<String> found = new ArrayList<>();
        while (block.find()) {
            if (block.group(1).equals(language)) {
                found.add(block.group(2));
            }
        }
        return found;
    }

    /** One Java block, named after its first public type (a file name javac accepts for it). */
    private static final class Source extends SimpleJavaFileObject {

        private static final Pattern PUBLIC_TYPE = Pattern.compile(
                "^public (?:final |abstract )?(?:class|interface|record|enum) (\\w+)", Pattern.MULTILINE);
        private static int count;

        private final String code;

        Source(String code) {
            super(URI.create("string:///" + name(code) + ".java"), Kind.SOURCE);
            this.code = code;
        }

        private static synchronized String name(String code) {
            Matcher type = PUBLIC_TYPE.matcher(code);
            return type.find() ? type.group(1) : "Sample" + ++count;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return code;
        }
    }
}
