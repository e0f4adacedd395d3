package io.streamsplit.boot.flink.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.autoconfigure.StreamSplitAutoConfiguration;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.remote.JobJars.Jar;
import io.streamsplit.boot.flink.remote.ShipRules.Verdict;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ApplicationContext;

class JobJarsTest {

    private final ShipRules rules = new ShipRules(List.of());

    @TempDir
    Path temp;

    @Test
    void nothingOnAFlinkClustersOwnClasspathIsShipped() {
        // the standalone test cluster runs with exactly Flink's runtime and its dependencies
        List<Path> cluster = StandaloneFlinkCluster.classpath();
        assertThat(cluster).hasSizeGreaterThan(30);
        String classPath = cluster.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        try (JobJars jars = JobJars.collect(classPath, true, List.of(), rules)) {
            assertThat(jars.shipped()).isEmpty();
            assertThat(jars.all())
                    .hasSize(cluster.size())
                    .allSatisfy(jar -> assertThat(jar.verdict())
                            .as(jar.source())
                            .isIn(Verdict.FLINK_PROVIDED, Verdict.APPLICATION_ONLY));
        }
    }

    @Test
    void classpathJarsAreShippedUnlessFlinkOrSpringProvidesThem() throws Exception {
        String classPath = String.join(
                File.pathSeparator,
                jarOf(JobGraph.class),
                jarOf(ApplicationContext.class),
                jarOf(KafkaConsumer.class),
                jarOf(KafkaSink.class),
                jarOf(StreamSplitKafkaSource.class),
                jarOf(StreamSplitAutoConfiguration.class));
        try (JobJars jars = JobJars.collect(classPath, true, List.of(), rules)) {
            Map<String, Verdict> verdicts = verdicts(jars);
            assertThat(verdicts)
                    .containsEntry(jarOf(JobGraph.class), Verdict.FLINK_PROVIDED)
                    .containsEntry(jarOf(ApplicationContext.class), Verdict.APPLICATION_ONLY)
                    .containsEntry(jarOf(KafkaConsumer.class), Verdict.SHIP)
                    .containsEntry(jarOf(KafkaSink.class), Verdict.SHIP)
                    .containsEntry(jarOf(StreamSplitAutoConfiguration.class), Verdict.APPLICATION_ONLY);
            assertThat(verdicts.get(jarOf(StreamSplitKafkaSource.class))).isEqualTo(Verdict.SHIP);
            assertThat(jars.summary()).startsWith("3 jars");
        }
    }

    @Test
    void classDirectoriesArePackedIntoJarsAndDeletedOnClose() throws Exception {
        Path classes = Files.createDirectories(temp.resolve("app/target/classes/com/acme"))
                .getParent()
                .getParent();
        Files.write(classes.resolve("com/acme/Enricher.class"), new byte[] {1, 2, 3});
        Files.writeString(classes.resolve("application.yml"), "x: 1");
        Path resourcesOnly = Files.createDirectories(temp.resolve("other/target/generated"));
        Files.writeString(resourcesOnly.resolve("notes.txt"), "no classes");

        JobJars jars = JobJars.collect(classes + File.pathSeparator + resourcesOnly, true, List.of(), rules);
        Path packed = jars.shipped().get(0);
        assertThat(packed.getFileName().toString()).isEqualTo("01-app-classes.jar");
        try (JarFile jar = new JarFile(packed.toFile())) {
            assertThat(jar.stream().map(ZipEntry::getName))
                    .containsExactly("application.yml", "com/acme/Enricher.class");
        }
        assertThat(verdicts(jars)).containsEntry(resourcesOnly.toString(), Verdict.NO_CLASSES);
        jars.close();
        assertThat(packed).doesNotExist();
    }

    @Test
    void aSpringBootFatJarIsOpenedAndOnlyItsShippableLibrariesAreExtracted() throws Exception {
        Path fatJar = temp.resolve("orders-app.jar");
        Manifest manifest = manifest(Map.of(
                "Main-Class",
                "org.springframework.boot.loader.launch.JarLauncher",
                "Spring-Boot-Classes",
                "BOOT-INF/classes/",
                "Spring-Boot-Lib",
                "BOOT-INF/lib/"));
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(fatJar), manifest)) {
            put(out, "BOOT-INF/classes/com/acme/OrderEmitter.class", new byte[] {4, 5});
            put(out, "BOOT-INF/classes/application.yml", "streamsplit: {}".getBytes());
            put(out, "org/springframework/boot/loader/launch/JarLauncher.class", new byte[] {6});
            for (Class<?> type : List.of(KafkaConsumer.class, ApplicationContext.class, JobGraph.class)) {
                Path lib = Path.of(jarOf(type));
                put(out, "BOOT-INF/lib/" + lib.getFileName(), Files.readAllBytes(lib));
            }
        }
        try (JobJars jars = JobJars.collect(fatJar.toString(), true, List.of(), rules)) {
            List<Path> shipped = jars.shipped();
            assertThat(shipped)
                    .extracting(path -> path.getFileName().toString())
                    .containsExactly(
                            "01-orders-app.jar",
                            Path.of(jarOf(KafkaConsumer.class)).getFileName().toString());
            try (JarFile app = new JarFile(shipped.get(0).toFile())) {
                assertThat(app.stream().map(ZipEntry::getName))
                        .containsExactlyInAnyOrder("com/acme/OrderEmitter.class", "application.yml");
            }
            // kept-back libraries are not left on disk
            assertThat(jars.all())
                    .filteredOn(jar -> jar.verdict() != Verdict.SHIP)
                    .hasSize(2)
                    .allSatisfy(jar -> assertThat(jar.path()).doesNotExist());
            assertThat(shipped.get(1)).hasSameBinaryContentAs(Path.of(jarOf(KafkaConsumer.class)));
        }
    }

    @Test
    void manifestClassPathIsFollowedAndUserExclusionsAndExtraJarsApply() throws Exception {
        Path lib = Path.of(jarOf(KafkaConsumer.class));
        Path extra = Path.of(jarOf(KafkaSink.class));
        Path booter = temp.resolve("booter.jar");
        Manifest manifest = manifest(Map.of(
                "Class-Path",
                lib.toUri() + " " + Path.of(jarOf(StreamSplitKafkaSource.class)).toUri()));
        new JarOutputStream(Files.newOutputStream(booter), manifest).close();

        ShipRules excludeClients = new ShipRules(List.of("kafka-clients-*.jar"));
        try (JobJars jars = JobJars.collect(booter.toString(), true, List.of(extra), excludeClients)) {
            Map<String, Verdict> verdicts = verdicts(jars);
            assertThat(verdicts)
                    .containsEntry(booter.toString(), Verdict.NO_CLASSES)
                    .containsEntry(lib.toString(), Verdict.EXCLUDED)
                    .containsEntry(extra.toString(), Verdict.SHIP);
            assertThat(jars.summary()).contains("1 excluded by streamsplit.flink.remote.exclude-jars");
        }
        try (JobJars jars = JobJars.collect(booter.toString(), false, List.of(extra), rules)) {
            assertThat(jars.shipped()).containsExactly(extra);
        }
    }

    @Test
    void anExtractedApplicationJarTravelsWithoutItsClassPathSoTheClusterViewDoesNotSeeSpringThroughIt()
            throws Exception {
        // java -Djarmode=tools -jar app.jar extract: app.jar holds the classes and names lib/*.jar
        Path spring = Path.of(jarOf(ApplicationContext.class));
        Path app = temp.resolve("app.jar");
        try (JarOutputStream out = new JarOutputStream(
                Files.newOutputStream(app),
                manifest(Map.of("Class-Path", spring.toUri().toString())))) {
            put(out, "com/acme/Orders.class", new byte[] {1, 2, 3});
        }

        try (JobJars jars = JobJars.collect(app.toString(), true, List.of(), rules);
                ClusterClasses cluster = new ClusterClasses(jars, getClass().getClassLoader())) {
            assertThat(verdicts(jars)).containsEntry(spring.toString(), Verdict.APPLICATION_ONLY);
            assertThat(jars.shipped()).hasSize(1);
            Path shipped = jars.shipped().get(0);
            assertThat(shipped).isNotEqualTo(app);
            try (JarFile copy = new JarFile(shipped.toFile())) {
                assertThat(copy.getManifest().getMainAttributes().getValue("Class-Path"))
                        .isNull();
                assertThat(copy.getEntry("com/acme/Orders.class")).isNotNull();
            }
            assertThat(cluster.missing(ApplicationContext.class.getName()))
                    .as("Spring stays behind, so the cluster cannot load it through the application jar")
                    .isNotNull();
        }
    }

    @Test
    void moreJarsThanOneSubmissionCanCarryFailWithTheWayOut() throws Exception {
        StringBuilder classPath = new StringBuilder();
        for (int i = 0; i <= JobJars.MAX_SHIPPED_JARS; i++) {
            Path dir = Files.createDirectories(temp.resolve("module" + i + "/target/classes/com/acme" + i));
            Files.write(dir.resolve("Fn.class"), new byte[] {1});
            classPath.append(dir.getParent().getParent()).append(File.pathSeparator);
        }
        assertThatThrownBy(() -> JobJars.collect(classPath.toString(), true, List.of(), rules))
                .isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
                    assertThat(e.getProperty()).isEqualTo("streamsplit.flink.remote.exclude-jars");
                    assertThat(e.getProblem()).startsWith("127 jars").contains("at most 126 jars");
                    assertThat(e.getAction()).contains("exclude-jars", "ship-classpath: false");
                });
    }

    @Test
    void rulesTellConnectorsFromFlinksRuntimeAndTheBrokerFromItsClient() {
        assertThat(rules.classify(
                        "flink-connector-base",
                        "flink-connector-base-2.3.0.jar",
                        Set.of("org/apache/flink/connector/base/source/reader/"),
                        false))
                .isEqualTo(Verdict.SHIP);
        assertThat(rules.classify(
                        "flink-connector-datagen",
                        "flink-connector-datagen-2.3.0.jar",
                        Set.of("org/apache/flink/connector/datagen/source/"),
                        false))
                .isEqualTo(Verdict.FLINK_PROVIDED);
        assertThat(rules.classify(
                        "flink-avro",
                        "flink-avro-2.3.0.jar",
                        Set.of("org/apache/flink/formats/avro/typeutils/"),
                        false))
                .as("flink-avro is in no distribution's lib/")
                .isEqualTo(Verdict.SHIP);
        assertThat(rules.classify(
                        "flink-json", "flink-json-2.3.0.jar", Set.of("org/apache/flink/formats/json/"), false))
                .isEqualTo(Verdict.FLINK_PROVIDED);
        assertThat(rules.classify(
                        "flink-table-api-java-bridge",
                        "flink-table-api-java-bridge-2.3.0.jar",
                        Set.of(
                                "org/apache/flink/table/api/bridge/java/",
                                "org/apache/flink/connector/print/table/",
                                "org/apache/flink/connector/datagen/table/",
                                "org/apache/flink/connector/blackhole/table/"),
                        false))
                .as("a distribution has the table API and its built-in connectors in lib/")
                .isEqualTo(Verdict.FLINK_PROVIDED);
        assertThat(rules.classify("kafka-server", "kafka-server-4.1.2.jar", Set.of("org/apache/kafka/server/"), false))
                .isEqualTo(Verdict.APPLICATION_ONLY);
        assertThat(rules.classify("guava", "guava-33.0.jar", Set.of("com/google/common/base/"), false))
                .isEqualTo(Verdict.SHIP);
        assertThat(rules.classify(null, "classes", Set.of("", "com/acme/"), false))
                .isEqualTo(Verdict.SHIP);
        assertThat(rules.classify(null, "classes", Set.of("io/streamsplit/boot/autoconfigure/"), true))
                .isEqualTo(Verdict.APPLICATION_ONLY);
        assertThat(ShipRules.artifactIdOf("commons-lang3-3.19.0.jar")).isEqualTo("commons-lang3");
        assertThat(ShipRules.artifactIdOf("kafka_2.13-4.1.2.jar")).isEqualTo("kafka_2.13");
        assertThat(ShipRules.artifactIdOf("app.jar")).isNull();
    }

    private static Map<String, Verdict> verdicts(JobJars jars) {
        return jars.all().stream().collect(Collectors.toMap(Jar::source, Jar::verdict, (a, b) -> a));
    }

    private static String jarOf(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }

    private static Manifest manifest(Map<String, String> attributes) {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        attributes.forEach((key, value) -> manifest.getMainAttributes().putValue(key, value));
        return manifest;
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new ZipEntry(name));
        out.write(bytes);
        out.closeEntry();
    }
}
