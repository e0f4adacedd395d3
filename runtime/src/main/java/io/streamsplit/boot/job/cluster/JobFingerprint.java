package io.streamsplit.boot.job.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.util.InstantiationUtil;
import org.jspecify.annotations.Nullable;

/**
 * What makes one version of the application's job different from another: its topology (operators,
 * names, uids, parallelism, the partitioning between them), each operator's serialized functions,
 * sources and sinks (where the YAML ends up: topics, group ids, guarantees, client settings), the
 * job's Flink configuration (checkpointing, restarts) and the content of every jar shipped with it
 * (the application's classes and libraries). Two starts of the same build with the same
 * configuration give the same fingerprint; a changed pipeline, property or class gives another.
 *
 * <p>Sixteen hex digits of a SHA-256; shown by {@code /actuator/streamsplit} and stored with the job
 * on the cluster, where the next start compares it with its own.
 */
public final class JobFingerprint {

    private JobFingerprint() {}

    /** The fingerprint of {@code graph}, built but not submitted, with the {@code jars} shipped for it. */
    public static String of(StreamGraph graph, List<Path> jars) {
        return parts(graph, jars).fingerprint();
    }

    /** The fingerprint and what it is made of, each part hashed on its own. */
    public static Parts parts(StreamGraph graph, List<Path> jars) {
        MessageDigest operators = sha256();
        put(operators, "job " + graph.getJobName());
        List<StreamNode> nodes = graph.getStreamNodesSortedTopologicallyFromSources();
        // node ids come from a JVM-wide counter: the same job built twice in one JVM numbers them differently
        Map<Integer, Integer> ordinals = new HashMap<>();
        for (StreamNode node : nodes) {
            ordinals.put(node.getId(), ordinals.size());
        }
        for (StreamNode node : nodes) {
            put(
                    operators,
                    "node " + ordinals.get(node.getId()) + " " + node.getOperatorName() + " p"
                            + node.getParallelism() + " max" + node.getMaxParallelism() + " uid "
                            + node.getTransformationUID() + " hash " + node.getUserHash() + " group "
                            + node.getSlotSharingGroup());
            operators.update(serialized(node.getOperatorFactory()));
            operators.update(serialized(node.getStatePartitioners()));
            operators.update(serialized(node.getStateKeySerializer()));
            for (StreamEdge edge : node.getOutEdges()) {
                put(
                        operators,
                        "edge " + ordinals.get(edge.getTargetId()) + " " + edge.getPartitioner() + " "
                                + (edge.getOutputTag() == null
                                        ? ""
                                        : edge.getOutputTag().getId()));
            }
        }
        MessageDigest configuration = sha256();
        put(configuration, "job " + settings(graph.getJobConfiguration().toMap()));
        put(
                configuration,
                "execution "
                        + settings(graph.getExecutionConfig().toConfiguration().toMap()));
        MessageDigest classes = sha256();
        List<Path> sorted = new ArrayList<>(jars);
        sorted.sort(Comparator.comparing(jar -> jar.getFileName().toString()));
        for (Path jar : sorted) {
            putJar(classes, jar);
        }
        return new Parts(hex(operators.digest()), hex(configuration.digest()), hex(classes.digest()));
    }

    /**
     * The three parts of a fingerprint, so that a difference can be named.
     *
     * @param operators the topology and each operator's serialized functions, sources and sinks
     * @param configuration the job's Flink configuration
     * @param jars the content of the shipped jars
     */
    public record Parts(String operators, String configuration, String jars) {

        /** Sixteen hex digits over the three parts. */
        public String fingerprint() {
            MessageDigest all = sha256();
            put(all, operators + configuration + jars);
            return hex(all.digest());
        }

        /** {@code operators=…,configuration=…,jars=…}: how the parts are stored with a run. */
        @Override
        public String toString() {
            return "operators=" + operators + ",configuration=" + configuration + ",jars=" + jars;
        }

        /** The names of the parts that differ from {@code other} (as {@link #toString()} wrote them). */
        public List<String> changedFrom(@Nullable String other) {
            if (other == null) {
                return List.of("operators", "configuration", "jars");
            }
            List<String> changed = new ArrayList<>();
            for (String part : toString().split(",")) {
                if (!other.contains(part)) {
                    changed.add(part.substring(0, part.indexOf('=')));
                }
            }
            return changed;
        }
    }

    /**
     * The job's settings without those that say where it is submitted (the cluster's address), where
     * this start put things (the shipped jars' temporary copies) or where the run starts from: none
     * of them changes what the job does.
     */
    private static TreeMap<String, String> settings(Map<String, String> configuration) {
        TreeMap<String, String> settings = new TreeMap<>(configuration);
        settings.keySet()
                .removeIf(key -> key.startsWith("$internal.")
                        || key.startsWith("rest.")
                        || key.startsWith("jobmanager.rpc.")
                        || key.equals(DeploymentOptions.TARGET.key())
                        || key.equals(DeploymentOptions.ATTACHED.key())
                        || key.equals(PipelineOptions.JARS.key())
                        || key.equals(PipelineOptions.CLASSPATHS.key())
                        || key.startsWith("execution.state-recovery."));
        // Flink writes a local directory that exists with a trailing '/' (File.toURI), one that does not without
        settings.replaceAll((key, value) -> value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
        return settings;
    }

    private static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest, 0, 8);
    }

    /** The jar's entries by name, size and CRC: its content, not the time it was packed. */
    private static void putJar(MessageDigest digest, Path jar) {
        put(digest, "jar " + jar.getFileName());
        try (JarFile file = new JarFile(jar.toFile())) {
            List<ZipEntry> entries = new ArrayList<>(file.stream().toList());
            entries.sort(Comparator.comparing(ZipEntry::getName));
            for (ZipEntry entry : entries) {
                put(digest, entry.getName() + " " + entry.getSize() + " " + entry.getCrc());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + jar + " to fingerprint the job", e);
        }
    }

    private static byte[] serialized(@Nullable Object value) {
        if (value == null) {
            return new byte[0];
        }
        try {
            return InstantiationUtil.serializeObject(value);
        } catch (IOException e) {
            // the submission serializes the same objects and reports the failure in the user's terms
            return value.getClass().getName().getBytes(StandardCharsets.UTF_8);
        }
    }

    private static void put(MessageDigest digest, String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) '\n');
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
