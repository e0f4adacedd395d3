package io.streamsplit.boot.flink.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.autoconfigure.DocsSamplesTest;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.yaml.snakeyaml.Yaml;

/**
 * docs/kubernetes.md is on paper but exact: every YAML block parses; the FlinkDeployment names the
 * Flink minor the starter is built on and only real Flink options; the application's environment
 * variables and its {@code streamsplit.flink.configuration} name real settings.
 */
class KubernetesPageTest {

    private static final Path PAGE = Path.of("..", "docs", "kubernetes.md");
    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

    /**
     * Options of the autoscaler (prefix {@code job.autoscaler.}), as facts from {@code AutoScalerOptions}
     * in apache/flink-kubernetes-operator (flink-autoscaler): the ones the page uses and their neighbours.
     */
    static final Set<String> AUTOSCALER_OPTIONS = Set.of(
            "job.autoscaler.enabled",
            "job.autoscaler.scaling.enabled",
            "job.autoscaler.metrics.window",
            "job.autoscaler.stabilization.interval",
            "job.autoscaler.utilization.target",
            "job.autoscaler.vertex.min-parallelism",
            "job.autoscaler.vertex.max-parallelism",
            "job.autoscaler.catch-up.duration");

    private static List<Object> documents() throws Exception {
        Matcher block = YAML_BLOCK.matcher(Files.readString(PAGE));
        List<Object> documents = new ArrayList<>();
        while (block.find()) {
            new Yaml().loadAll(block.group(1)).forEach(documents::add);
        }
        return documents;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> manifests(String kind) throws Exception {
        List<Map<String, Object>> found = new ArrayList<>();
        for (Object document : documents()) {
            if (document instanceof Map<?, ?> map && kind.equals(map.get("kind"))) {
                found.add((Map<String, Object>) map);
            }
        }
        return found;
    }

    @Test
    void everyBlockParsesAndTheApplicationYamlBindsToStreamsplit() throws Exception {
        assertThat(documents())
                .hasSize(4)
                .allSatisfy(document -> assertThat(document).isInstanceOf(Map.class));
        DocsSamplesTest.yamlSamplesBind(PAGE);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSessionClusterRunsTheStartersFlinkMinorWithRealFlinkOptions() throws Exception {
        List<Map<String, Object>> deployments = manifests("FlinkDeployment");
        assertThat(deployments).hasSize(1);
        Map<String, Object> spec = (Map<String, Object>) deployments.get(0).get("spec");
        assertThat(spec).as("a session cluster has no job").doesNotContainKey("job");
        String[] version = EnvironmentInformation.getVersion().split("\\.");
        assertThat(spec.get("flinkVersion")).isEqualTo("v" + version[0] + "_" + version[1]);
        assertThat((String) spec.get("image")).startsWith("flink:" + EnvironmentInformation.getVersion());
        Map<String, Object> configuration = (Map<String, Object>) spec.get("flinkConfiguration");
        assertThat(configuration.keySet())
                .isNotEmpty()
                .allSatisfy(key ->
                        assertThat(flinkOptions()).as("Flink option %s", key).contains(key));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theApplicationsVariablesAndFlinkSettingsNameRealProperties() throws Exception {
        Map<String, Object> app = manifests("Deployment").stream()
                .filter(d -> "order-totals".equals(((Map<String, Object>) d.get("metadata")).get("name")))
                .findFirst()
                .orElseThrow();
        Map<String, Object> pod = (Map<String, Object>)
                ((Map<String, Object>) ((Map<String, Object>) app.get("spec")).get("template")).get("spec");
        List<Map<String, Object>> env = (List<Map<String, Object>>)
                ((List<Map<String, Object>>) pod.get("containers")).get(0).get("env");
        Map<String, Object> variables = new java.util.LinkedHashMap<>();
        env.stream()
                .filter(e -> String.valueOf(e.get("name")).startsWith("STREAMSPLIT_"))
                .forEach(e -> variables.put(String.valueOf(e.get("name")), e.get("value")));
        assertThat(variables).hasSize(5);
        // Spring Boot's relaxed binding from the environment, as in the pod
        Binder binder = new Binder(ConfigurationPropertySources.from(new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables)));
        io.streamsplit.boot.autoconfigure.StreamSplitProperties bound = binder.bind(
                        "streamsplit", Bindable.of(io.streamsplit.boot.autoconfigure.StreamSplitProperties.class))
                .get();
        assertThat(bound.getFlink().getRemote().getHost()).isEqualTo("pipelines-rest");
        assertThat(bound.getFlink().getRemote().getPort()).isEqualTo(8081);
        assertThat(bound.getKafka().getBootstrapServers()).containsExactly("kafka-0.kafka:9092", "kafka-1.kafka:9092");
        assertThat(bound.getKafka().getControlTopic()).isEqualTo("order-totals-control");
        assertThat(bound.getFlink().getMode().name()).isEqualTo("REMOTE");

        Map<String, Object> applicationYaml = null;
        for (Object document : documents()) {
            if (document instanceof Map<?, ?> map && map.containsKey("streamsplit")) {
                applicationYaml = (Map<String, Object>) map;
            }
        }
        Map<String, Object> flinkSettings = (Map<String, Object>)
                ((Map<String, Object>) ((Map<String, Object>) applicationYaml.get("streamsplit")).get("flink"))
                        .get("configuration");
        assertThat(flinkSettings.keySet())
                .isNotEmpty()
                .allSatisfy(key -> assertThat(AUTOSCALER_OPTIONS)
                        .as("autoscaler option %s", key)
                        .contains(key));
    }

    /** The keys (and fallback keys) of the Flink options a session cluster's configuration sets. */
    static Set<String> flinkOptions() throws IllegalAccessException {
        Set<String> keys = new HashSet<>();
        for (Class<?> options : List.of(
                JobManagerOptions.class,
                TaskManagerOptions.class,
                CheckpointingOptions.class,
                StateRecoveryOptions.class,
                MetricOptions.class,
                RestOptions.class,
                org.apache.flink.configuration.HighAvailabilityOptions.class,
                CoreOptions.class)) {
            for (Field field : options.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == ConfigOption.class) {
                    ConfigOption<?> option = (ConfigOption<?>) field.get(null);
                    keys.add(option.key());
                    for (FallbackKey fallback : option.fallbackKeys()) {
                        keys.add(fallback.getKey());
                    }
                }
            }
        }
        return keys;
    }
}
