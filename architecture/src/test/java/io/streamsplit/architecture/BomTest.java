package io.streamsplit.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code streamsplit-bom} versions what an application may depend on: every module that ships, at the
 * build's version, and the format libraries at the versions the build uses. It has no parent (it must
 * not bring Spring Boot's or Flink's dependency management along), so nothing keeps it in step but this.
 */
class BomTest {

    /** Modules that do not ship: tests, harnesses, the sample, this. */
    private static final Set<String> NOT_SHIPPED = Set.of(
            "bom",
            "getting-started",
            "test-schema-registry",
            "flink-test-cluster",
            "sample-app",
            "benchmarks-app",
            "benchmarks-sql-app",
            "benchmarks-kstreams-app",
            "benchmarks-kstreams44-app",
            "compatibility",
            "benchmarks",
            "architecture");

    @Test
    void theBomVersionsEveryShippedModuleAndTheFormatLibrariesAtTheBuildsVersions() throws Exception {
        Document root = read(Path.of("..", "pom.xml"));
        Document bom = read(Path.of("..", "bom", "pom.xml"));

        assertThat(text(bom.getDocumentElement(), "version")).isEqualTo(text(root.getDocumentElement(), "version"));
        for (String property : List.of("flink.version", "protobuf.version", "openlineage.version")) {
            assertThat(text(bom.getDocumentElement(), property))
                    .as(property)
                    .isEqualTo(text(root.getDocumentElement(), property));
        }

        List<String> shipped = new ArrayList<>();
        NodeList modules = root.getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++) {
            String module = modules.item(i).getTextContent().trim();
            if (!NOT_SHIPPED.contains(module)) {
                shipped.add(text(read(Path.of("..", module, "pom.xml")).getDocumentElement(), "artifactId"));
            }
        }
        List<String> managed = new ArrayList<>();
        NodeList dependencies = bom.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            if (text(dependency, "groupId").equals("io.streamsplit")) {
                managed.add(text(dependency, "artifactId"));
                assertThat(text(dependency, "version")).isEqualTo("${project.version}");
            }
        }
        assertThat(managed).containsExactlyInAnyOrderElementsOf(shipped);
    }

    private static Document read(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    /** The text of {@code parent}'s first child element named {@code name} (not of a nested parent's). */
    private static String text(Element parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element child && child.getTagName().equals(name)) {
                return child.getTextContent().trim();
            }
        }
        NodeList anywhere = parent.getElementsByTagName(name);
        return anywhere.getLength() == 0
                ? ""
                : anywhere.item(0).getTextContent().trim();
    }
}
