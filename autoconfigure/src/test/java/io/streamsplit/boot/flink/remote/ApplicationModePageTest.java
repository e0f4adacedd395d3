package io.streamsplit.boot.flink.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * docs/application-mode.md is on paper for Kubernetes but exact: its FlinkDeployment parses, runs the
 * Flink minor the starter is built on, sets only real Flink and autoscaler options, and names the
 * sample's main class and a jar in the usrlib/ the extracted layout goes to.
 */
class ApplicationModePageTest {

    private static final Path PAGE = Path.of("..", "docs", "application-mode.md");
    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

    @Test
    @SuppressWarnings("unchecked")
    void theFlinkDeploymentRunsTheSampleJarOnTheStartersFlinkMinorWithRealOptions() throws Exception {
        Matcher block = YAML_BLOCK.matcher(Files.readString(PAGE));
        List<Map<String, Object>> documents = new ArrayList<>();
        while (block.find()) {
            new Yaml().loadAll(block.group(1)).forEach(document -> documents.add((Map<String, Object>) document));
        }
        assertThat(documents).hasSize(1);
        Map<String, Object> deployment = documents.get(0);
        assertThat(deployment.get("kind")).isEqualTo("FlinkDeployment");
        Map<String, Object> spec = (Map<String, Object>) deployment.get("spec");
        String[] version = EnvironmentInformation.getVersion().split("\\.");
        assertThat(spec.get("flinkVersion")).isEqualTo("v" + version[0] + "_" + version[1]);

        Map<String, Object> job = (Map<String, Object>) spec.get("job");
        String samplePom = Files.readString(Path.of("..", "sample-app", "pom.xml"));
        Matcher finalName = Pattern.compile("<finalName>([^<]+)</finalName>").matcher(samplePom);
        Matcher classifier = Pattern.compile("<classifier>([^<]+)</classifier>").matcher(samplePom);
        assertThat(finalName.find() && classifier.find())
                .as("the sample's jar name in its pom")
                .isTrue();
        assertThat((String) job.get("jarURI"))
                .as("the jar the sample builds, extracted to usrlib/")
                .isEqualTo("local:///opt/flink/usrlib/" + finalName.group(1) + "-" + classifier.group(1) + ".jar");
        String entryClass = (String) job.get("entryClass");
        assertThat(Path.of("..", "sample-app", "src", "main", "java", entryClass.replace('.', '/') + ".java"))
                .as("the sample's main class")
                .exists();
        assertThat(job.get("upgradeMode")).isIn("savepoint", "last-state");
        assertThat((List<String>) job.get("args"))
                .allSatisfy(arg -> assertThat(arg).startsWith("--streamsplit."));

        Map<String, Object> configuration = (Map<String, Object>) spec.get("flinkConfiguration");
        assertThat(configuration.keySet())
                .isNotEmpty()
                .allSatisfy(key -> assertThat(
                                key.startsWith("job.autoscaler.")
                                        ? KubernetesPageTest.AUTOSCALER_OPTIONS
                                        : KubernetesPageTest.flinkOptions())
                        .as("option %s", key)
                        .contains(key));
    }
}
