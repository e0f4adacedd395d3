package io.streamsplit.boot.flink.remote;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Decides which jar of the application's classpath travels to a Flink cluster with the job.
 *
 * <p>Shipped: everything the job's code can need that a Flink cluster does not have — the
 * application's classes, the StreamSplit connector, Flink connectors, kafka-clients and any other
 * library. Kept back: what every Flink cluster already has (Flink's runtime and the libraries it
 * depends on — a cluster loads {@code org.apache.flink} classes from its own {@code lib/} anyway),
 * Spring and what only the Spring application needs (the starter's Spring side, web server, logging
 * backends, metrics registries, the dev-mode Kafka broker), and whatever the user excludes by name.
 * Unknown libraries are shipped: a jar too many costs upload time, a jar too few fails the job.
 *
 * <p>Jars are recognised by the packages of their classes (Flink's and Spring's jars carry no Maven
 * descriptor) and, for libraries, by artifact id.
 */
public final class ShipRules {

    /** Why a classpath entry is or is not shipped. */
    enum Verdict {
        SHIP,
        FLINK_PROVIDED,
        APPLICATION_ONLY,
        EXCLUDED,
        NO_CLASSES
    }

    /**
     * Packages of Flink connectors and formats that a Flink distribution's lib/ already contains; other
     * connectors and formats (flink-avro, for one) travel.
     */
    private static final List<String> FLINK_DISTRIBUTION_CONNECTORS = List.of(
            "org/apache/flink/connector/datagen/",
            "org/apache/flink/connector/file/",
            // the table API's own connectors (flink-table-api-java-bridge, in lib/ as flink-table-api-java-uber)
            "org/apache/flink/connector/blackhole/",
            "org/apache/flink/connector/print/",
            "org/apache/flink/formats/json/",
            "org/apache/flink/formats/csv/");

    /**
     * The third-party libraries flink-runtime, flink-streaming-java and flink-clients bring, and the table
     * runtime (a Flink distribution's lib/ holds them), by artifact id.
     */
    private static final Set<String> FLINK_DEPENDENCIES = Set.of(
            "lz4-java",
            "kryo",
            "minlog",
            "reflectasm",
            "jsr305",
            "commons-cli",
            "commons-collections",
            "commons-io",
            "commons-compress",
            "commons-lang3",
            "commons-math3",
            "commons-text",
            "javassist",
            "jspecify",
            "objenesis",
            "RoaringBitmap",
            "snakeyaml-engine",
            "snappy-java",
            "async-profiler",
            // the table stack a distribution's lib/ holds: its runtime (with Janino inside) and what it needs
            "flink-table-runtime",
            "flink-table-planner-loader",
            "icu4j");

    /**
     * Logging every Flink cluster has in lib/ and loads parent-first (SLF4J, Log4j 2): a copy in the
     * job would never be used.
     */
    private static final List<String> FLINK_LOGGING_PACKAGES = List.of("org/slf4j/", "org/apache/logging/log4j/");

    /** Packages of what only the Spring application itself uses: a jar with only these stays behind. */
    private static final List<String> APPLICATION_PACKAGES = List.of(
            "org/springframework/",
            "org/aopalliance/",
            "io/micrometer/",
            "io/openlineage/",
            "io/prometheus/",
            "org/HdrHistogram/",
            "org/LatencyUtils/",
            "org/apache/catalina/",
            "org/apache/tomcat/",
            "org/apache/coyote/",
            "org/apache/naming/",
            "org/apache/el/",
            "org/apache/juli/",
            "jakarta/",
            "ch/qos/logback/",
            "org/apache/logging/slf4j/",
            "org/yaml/snakeyaml/",
            "scala/",
            "com/typesafe/scalalogging/",
            "kafka/");

    /**
     * A resource every StreamSplit module that only the Spring application uses carries (the
     * auto-configuration, the dev-mode broker, the test kit): a jar or class directory holding it stays
     * behind.
     */
    static final String APPLICATION_MARKER = "META-INF/streamsplit/application-side";

    private final List<PathMatcher> excludes;
    private final List<String> excludePatterns;

    public ShipRules(List<String> excludePatterns) {
        this.excludePatterns = List.copyOf(excludePatterns);
        this.excludes = excludePatterns.stream()
                .map(pattern -> FileSystems.getDefault().getPathMatcher("glob:" + pattern))
                .toList();
    }

    /**
     * The verdict for one jar from its artifact id (from its {@code pom.properties}, else its file name;
     * null if neither tells), its file name and the packages its classes are in
     * ({@code org/apache/flink/runtime/}, ...; empty if it has no classes), and whether it holds one of the
     * {@link #APPLICATION_MARKER}.
     */
    Verdict classify(@Nullable String artifactId, String fileName, Set<String> classPackages, boolean starterSide) {
        if (excluded(fileName)) {
            return Verdict.EXCLUDED;
        }
        if (classPackages.isEmpty()) {
            return Verdict.NO_CLASSES;
        }
        if (allUnder(classPackages, List.of("org/apache/flink/"))) {
            boolean connector = classPackages.stream()
                    .anyMatch(p -> (p.startsWith("org/apache/flink/connector/")
                                    || p.startsWith("org/apache/flink/streaming/connectors/")
                                    || p.startsWith("org/apache/flink/formats/"))
                            && FLINK_DISTRIBUTION_CONNECTORS.stream().noneMatch(p::startsWith));
            return connector ? Verdict.SHIP : Verdict.FLINK_PROVIDED;
        }
        if (artifactId != null && FLINK_DEPENDENCIES.contains(artifactId)
                || allUnder(classPackages, FLINK_LOGGING_PACKAGES)) {
            return Verdict.FLINK_PROVIDED;
        }
        if (starterSide || allUnder(classPackages, APPLICATION_PACKAGES) || isKafkaBroker(artifactId)) {
            return Verdict.APPLICATION_ONLY;
        }
        return Verdict.SHIP;
    }

    /** The artifact id in a Maven-style file name ({@code commons-lang3-3.19.0.jar} → {@code commons-lang3}). */
    static @Nullable String artifactIdOf(String fileName) {
        String name = fileName.endsWith(".jar") ? fileName.substring(0, fileName.length() - 4) : fileName;
        for (int i = 0; i < name.length() - 1; i++) {
            if (name.charAt(i) == '-' && Character.isDigit(name.charAt(i + 1))) {
                return name.substring(0, i);
            }
        }
        return null;
    }

    private static boolean allUnder(Set<String> packages, List<String> prefixes) {
        return packages.stream().allMatch(p -> prefixes.stream().anyMatch(p::startsWith));
    }

    /** Whether the user excluded this file name ({@code streamsplit.flink.remote.exclude-jars}). */
    boolean excluded(String fileName) {
        Path name = Path.of(fileName);
        return excludes.stream().anyMatch(matcher -> matcher.matches(name));
    }

    List<String> excludePatterns() {
        return excludePatterns;
    }

    /** The broker's own jars (dev mode: kafka_2.13, kafka-server, kafka-raft, ...); clients need kafka-clients only. */
    private static boolean isKafkaBroker(@Nullable String artifactId) {
        return artifactId != null && artifactId.startsWith("kafka") && !artifactId.equals("kafka-clients");
    }
}
