package io.streamsplit.boot.flink.remote;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jars a remote job takes to the Flink cluster, collected from the running application's own
 * classpath: class directories (IDE, {@code mvn spring-boot:run}) are packed into jars, a Spring Boot
 * fat jar ({@code java -jar app.jar}) is opened and its {@code BOOT-INF/classes} and
 * {@code BOOT-INF/lib} jars taken out, manifest {@code Class-Path} entries are followed; then
 * {@link ShipRules} keeps Flink's, Spring's and the starter's jars back. The packed and extracted
 * jars live in a temporary directory that {@link #close()} deletes.
 */
public final class JobJars implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobJars.class);

    /**
     * Files one job submission can carry: Flink's REST server decodes uploads with Netty's multipart
     * decoder, which stops at 128 form fields; the request body and the job graph take two.
     */
    static final int MAX_SHIPPED_JARS = 126;

    /** One classpath jar (or packed directory), what it is and whether it travels. */
    record Jar(Path path, String source, ShipRules.Verdict verdict, long bytes) {}

    private final Path workDir;
    private final List<Jar> jars;

    private JobJars(Path workDir, List<Jar> jars) {
        this.workDir = workDir;
        this.jars = List.copyOf(jars);
    }

    /**
     * Collects from {@code classPath} (as in {@code java.class.path}) and adds the {@code extra} jars as
     * they are; with {@code shipClasspath} false only the extra jars travel.
     */
    public static JobJars collect(String classPath, boolean shipClasspath, List<Path> extra, ShipRules rules) {
        Path workDir;
        try {
            workDir = Files.createTempDirectory("streamsplit-job-jars-");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a directory for the jars shipped with the job", e);
        }
        Collector collector = new Collector(workDir, rules);
        try {
            if (shipClasspath) {
                for (String entry : classPath.split(File.pathSeparator)) {
                    if (!entry.isBlank()) {
                        collector.add(Path.of(entry));
                    }
                }
            }
            for (Path jar : extra) {
                collector.jars.add(new Jar(jar, jar.toString(), ShipRules.Verdict.SHIP, size(jar)));
            }
        } catch (IOException e) {
            delete(workDir);
            throw new UncheckedIOException(
                    "Could not collect the application's jars for the Flink cluster: " + e.getMessage(), e);
        }
        JobJars jobJars = new JobJars(workDir, collector.jars);
        if (jobJars.shipped().size() > MAX_SHIPPED_JARS) {
            jobJars.close();
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.remote.exclude-jars",
                    rules.excludePatterns(),
                    jobJars.summary() + ", but a Flink cluster accepts at most " + MAX_SHIPPED_JARS
                            + " jars in one job submission (its REST upload limit)",
                    "Exclude jars the job does not use with streamsplit.flink.remote.exclude-jars (file-name globs,"
                            + " e.g. 'aws-java-sdk-*.jar'; debug logging of " + JobJars.class.getName()
                            + " lists them), or build one job jar and set ship-classpath: false and jars: [it].");
        }
        LOG.info("Jars for the Flink cluster: {}", jobJars.summary());
        if (LOG.isDebugEnabled()) {
            jobJars.all().forEach(jar -> LOG.debug("  {} {} ({} bytes)", jar.verdict(), jar.source(), jar.bytes()));
        }
        return jobJars;
    }

    /** Every classpath entry looked at, with its verdict. */
    List<Jar> all() {
        return jars;
    }

    /** The jars that travel with the job. */
    public List<Path> shipped() {
        return jars.stream()
                .filter(jar -> jar.verdict() == ShipRules.Verdict.SHIP)
                .map(Jar::path)
                .toList();
    }

    /** "12 jars, 9.4 MB shipped; kept back: 44 provided by Flink, 61 Spring/application-only, ..." */
    String summary() {
        List<Jar> shipped = jars.stream()
                .filter(jar -> jar.verdict() == ShipRules.Verdict.SHIP)
                .toList();
        long bytes = shipped.stream().mapToLong(Jar::bytes).sum();
        Map<ShipRules.Verdict, Integer> kept = new EnumMap<>(ShipRules.Verdict.class);
        jars.stream()
                .filter(jar -> jar.verdict() != ShipRules.Verdict.SHIP)
                .forEach(jar -> kept.merge(jar.verdict(), 1, Integer::sum));
        return String.format(
                "%d jars, %.1f MB shipped; kept back: %d already on every Flink cluster, %d"
                        + " Spring/application-only, %d excluded by streamsplit.flink.remote.exclude-jars, %d without classes",
                shipped.size(),
                bytes / 1_048_576.0,
                kept.getOrDefault(ShipRules.Verdict.FLINK_PROVIDED, 0),
                kept.getOrDefault(ShipRules.Verdict.APPLICATION_ONLY, 0),
                kept.getOrDefault(ShipRules.Verdict.EXCLUDED, 0),
                kept.getOrDefault(ShipRules.Verdict.NO_CLASSES, 0));
    }

    /** Deletes the packed and extracted jars. */
    @Override
    public void close() {
        delete(workDir);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            LOG.warn("Could not delete the temporary job jars in {}: {}", dir, e.getMessage());
        }
    }

    /** Walks classpath entries once each, in order. */
    private static final class Collector {

        private final Path workDir;
        private final ShipRules rules;
        private final List<Jar> jars = new ArrayList<>();
        private final Set<Path> seen = new LinkedHashSet<>();
        private int packed;

        Collector(Path workDir, ShipRules rules) {
            this.workDir = workDir;
            this.rules = rules;
        }

        void add(Path entry) throws IOException {
            Path real = entry.toAbsolutePath().normalize();
            if (!Files.exists(real) || !seen.add(real)) {
                return;
            }
            if (Files.isDirectory(real)) {
                addDirectory(real);
                return;
            }
            try (JarFile jar = new JarFile(real.toFile())) {
                Manifest manifest = jar.getManifest();
                Attributes main = manifest != null ? manifest.getMainAttributes() : new Attributes();
                if (main.getValue("Spring-Boot-Lib") != null) {
                    addFatJar(real, jar, main);
                    return;
                }
                String classPath = main.getValue(Attributes.Name.CLASS_PATH);
                if (classPath == null) {
                    jars.add(classify(real, real.toString(), jar));
                    return;
                }
                for (String item : classPath.trim().split("\\s+")) {
                    add(Path.of(real.toUri().resolve(item))); // relative to the jar's directory
                }
                Jar withClassPath = classify(real, real.toString(), jar);
                jars.add(
                        withClassPath.verdict() == ShipRules.Verdict.SHIP
                                ? withoutClassPath(real, jar)
                                : withClassPath);
            }
        }

        /**
         * A copy of a jar whose manifest {@code Class-Path} was followed (Spring Boot's extracted layout:
         * {@code app.jar} naming {@code lib/*.jar}), without that attribute: its entries were judged one by
         * one, and on the cluster they would not resolve — or, through this view of the cluster
         * ({@link ClusterClasses}), resolve to the Spring jars that stay behind.
         */
        private Jar withoutClassPath(Path original, JarFile jar) throws IOException {
            Manifest manifest = new Manifest(jar.getManifest());
            manifest.getMainAttributes().remove(Attributes.Name.CLASS_PATH);
            Path copy = workDir.resolve(String.format("%02d-%s", ++packed, original.getFileName()));
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(copy), manifest)) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    if (!entry.isDirectory() && !entry.getName().equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
                        out.putNextEntry(new ZipEntry(entry.getName()));
                        copy(jar, entry, out);
                        out.closeEntry();
                    }
                }
            }
            return new Jar(
                    copy, original + " (without its manifest Class-Path)", ShipRules.Verdict.SHIP, Files.size(copy));
        }

        private void addDirectory(Path dir) throws IOException {
            ShipRules.Verdict verdict = directoryVerdict(dir);
            if (verdict != ShipRules.Verdict.SHIP) {
                jars.add(new Jar(dir, dir.toString(), verdict, 0));
                return;
            }
            Path parent = dir.getParent();
            String name = (parent != null && parent.getParent() != null
                            ? parent.getParent().getFileName() + "-"
                            : "")
                    + dir.getFileName();
            Path jar = workDir.resolve(String.format("%02d-%s.jar", ++packed, name));
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                    Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    out.putNextEntry(
                            new ZipEntry(dir.relativize(file).toString().replace(File.separatorChar, '/')));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
            jars.add(new Jar(jar, dir.toString(), ShipRules.Verdict.SHIP, Files.size(jar)));
        }

        private ShipRules.Verdict directoryVerdict(Path dir) throws IOException {
            Set<String> packages = new TreeSet<>();
            try (Stream<Path> files = Files.walk(dir)) {
                files.filter(file -> isClass(file.toString()))
                        .forEach(file -> packages.add(
                                packageOf(dir.relativize(file).toString().replace(File.separatorChar, '/'))));
            }
            boolean starterSide = Files.exists(dir.resolve(ShipRules.APPLICATION_MARKER));
            return rules.classify(null, dir.getFileName().toString(), packages, starterSide);
        }

        /** {@code java -jar app.jar}: the application's classes and its libraries come out of the fat jar. */
        private void addFatJar(Path fatJar, JarFile jar, Attributes main) throws IOException {
            String classes = main.getValue("Spring-Boot-Classes");
            String lib = main.getValue("Spring-Boot-Lib");
            Path libDir = Files.createDirectories(workDir.resolve("lib"));
            Path appJar = workDir.resolve(String.format("%02d-%s", ++packed, fatJar.getFileName()));
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(appJar))) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    String name = entry.getName();
                    if (entry.isDirectory()) {
                        continue;
                    }
                    if (classes != null && name.startsWith(classes)) {
                        out.putNextEntry(new ZipEntry(name.substring(classes.length())));
                        copy(jar, entry, out);
                        out.closeEntry();
                    } else if (name.startsWith(lib) && name.endsWith(".jar")) {
                        addNested(fatJar, jar, entry, libDir.resolve(name.substring(name.lastIndexOf('/') + 1)));
                    }
                }
            }
            jars.add(0, new Jar(appJar, fatJar + "!/" + classes, ShipRules.Verdict.SHIP, Files.size(appJar)));
        }

        private void addNested(Path fatJar, JarFile outer, JarEntry entry, Path target) throws IOException {
            String source = fatJar + "!/" + entry.getName();
            if (rules.excluded(target.getFileName().toString())) {
                jars.add(new Jar(target, source, ShipRules.Verdict.EXCLUDED, entry.getSize()));
                return;
            }
            try (InputStream in = outer.getInputStream(entry)) {
                Files.copy(in, target);
            }
            Jar nested;
            try (JarFile jar = new JarFile(target.toFile())) {
                nested = classify(target, source, jar);
            }
            if (nested.verdict() != ShipRules.Verdict.SHIP) {
                Files.delete(target);
            }
            jars.add(nested);
        }

        private Jar classify(Path path, String source, JarFile jar) throws IOException {
            String fileName = path.getFileName().toString();
            String artifactId = artifactId(jar, fileName);
            Set<String> packages = new TreeSet<>();
            jar.stream()
                    .filter(entry -> isClass(entry.getName()))
                    .forEach(entry -> packages.add(packageOf(entry.getName())));
            boolean starterSide = jar.getEntry(ShipRules.APPLICATION_MARKER) != null;
            return new Jar(path, source, rules.classify(artifactId, fileName, packages, starterSide), Files.size(path));
        }

        private static void copy(JarFile jar, JarEntry entry, OutputStream out) throws IOException {
            try (InputStream in = jar.getInputStream(entry)) {
                in.transferTo(out);
            }
        }
    }

    /**
     * A jar's Maven artifact id: from its {@code pom.properties} when it has exactly one (a shaded jar
     * carries several: then the one that starts the file name), else from the file name.
     */
    static @Nullable String artifactId(JarFile jar, String fileName) throws IOException {
        List<String> found = new ArrayList<>();
        Enumeration<JarEntry> entries = jar.entries();
        while (entries.hasMoreElements()) {
            JarEntry entry = entries.nextElement();
            if (entry.getName().startsWith("META-INF/maven/") && entry.getName().endsWith("/pom.properties")) {
                Properties pom = new Properties();
                try (InputStream in = jar.getInputStream(entry)) {
                    pom.load(in);
                }
                if (pom.getProperty("artifactId") != null) {
                    found.add(pom.getProperty("artifactId"));
                }
            }
        }
        if (found.size() == 1) {
            return found.get(0);
        }
        return found.stream()
                .filter(id -> fileName.startsWith(id + "-"))
                .findFirst()
                .orElse(ShipRules.artifactIdOf(fileName));
    }

    /** A class file that counts for classification (not module-info, not a multi-release copy). */
    static boolean isClass(String name) {
        return name.endsWith(".class") && !name.endsWith("module-info.class") && !name.startsWith("META-INF/");
    }

    /** {@code org/apache/flink/runtime/jobgraph/JobGraph.class} → {@code org/apache/flink/runtime/jobgraph/}. */
    static String packageOf(String classFile) {
        int slash = classFile.lastIndexOf('/');
        return slash < 0 ? "" : classFile.substring(0, slash + 1);
    }
}
