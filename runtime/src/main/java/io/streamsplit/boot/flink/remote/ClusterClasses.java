package io.streamsplit.boot.flink.remote;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.SerializedLambda;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.jspecify.annotations.Nullable;

/**
 * Remote mode: sees the job's classes as the Flink cluster will. A class loader over only the shipped
 * jars, whose parent answers only with the JDK's and Flink's classes, loads every class a serialized
 * job object needs — and the types in those classes' fields and method signatures, which Java
 * deserialization resolves (a lambda is rebuilt through its defining class's
 * {@code $deserializeLambda$}, so every method signature of that class must resolve). A class that
 * needs Spring, the starter's Spring side or an excluded jar is found here, at startup, instead of as
 * a {@code ClassNotFoundException} on the cluster.
 */
public final class ClusterClasses implements AutoCloseable {

    private final URLClassLoader cluster;
    private final ClassLoader application;

    public ClusterClasses(JobJars jars, ClassLoader application) {
        this.application = application;
        Set<String> flinkJars = jars.all().stream()
                .filter(jar -> jar.verdict() == ShipRules.Verdict.FLINK_PROVIDED)
                .map(jar -> jar.path().getFileName().toString())
                .collect(Collectors.toSet());
        URL[] shipped = jars.shipped().stream().map(ClusterClasses::url).toArray(URL[]::new);
        this.cluster = new URLClassLoader("streamsplit-cluster-view", shipped, new FlinkOnly(application, flinkJars));
    }

    /**
     * A class the job needs that the cluster will not have.
     *
     * @param className the class the job's serialized objects use
     * @param needed the class it cannot be loaded without: itself, or a type in its fields or methods
     * @param from where the application has {@code needed} from (a jar name)
     */
    public record Missing(String className, String needed, String from) {

        @Override
        public String toString() {
            return (className.equals(needed) ? className : className + " needs " + needed)
                    + ", which is in no shipped jar (the application has it from " + from + ")";
        }
    }

    /**
     * Remote mode: every operator's function, key selector and serializer must load on the cluster
     * from the shipped jars. A lambda is rebuilt there through the class that defines it, so a lambda
     * written in a class whose methods mention Spring types cannot run on a cluster without Spring.
     */
    public void requireLoadable(StreamGraph graph) {
        for (StreamNode node : graph.getStreamNodes()) {
            List<Object> parts = new ArrayList<>();
            parts.add(node.getOperatorFactory());
            parts.addAll(Arrays.asList(node.getStatePartitioners()));
            parts.addAll(Arrays.asList(node.getTypeSerializersIn()));
            parts.add(node.getTypeSerializerOut());
            parts.add(node.getStateKeySerializer());
            node.getOutEdges().forEach(edge -> parts.add(edge.getPartitioner()));
            for (Object part : parts) {
                Missing missing = part == null ? null : missingFor(part);
                if (missing != null) {
                    throw new IllegalStateException("Operator '" + node.getOperatorName() + "' of the Flink job"
                            + " cannot be loaded on the Flink cluster: " + missing + ". Spring and the starter's"
                            + " Spring side are not shipped, and the cluster rebuilds a lambda or method reference"
                            + " through the class that defines it. Move the function into a class whose fields"
                            + " and method signatures do not mention Spring types (e.g. its own class implementing"
                            + " the Flink function interface); if a library is missing, ship it with"
                            + " streamsplit.flink.remote.jars.");
                }
            }
        }
    }

    /** The first class {@code value}'s serialized form needs that the cluster will not have; null if none. */
    public @Nullable Missing missingFor(Object value) {
        for (String className : classesIn(value)) {
            Missing missing = missing(className);
            if (missing != null) {
                return missing;
            }
        }
        return null;
    }

    /** Whether the cluster can load {@code className} and resolve its fields and method signatures. */
    @Nullable
    Missing missing(String className) {
        try {
            Class<?> type = Class.forName(className, false, cluster);
            if (type.getClassLoader() == cluster) {
                type.getDeclaredFields();
                type.getDeclaredMethods();
                type.getDeclaredConstructors();
            }
            return null;
        } catch (ClassNotFoundException e) {
            return new Missing(className, className, FlinkOnly.source(application, className));
        } catch (LinkageError e) {
            String needed = e.getMessage() == null ? className : e.getMessage().replace('/', '.');
            return new Missing(className, needed, FlinkOnly.source(application, needed));
        }
    }

    /** The classes (and lambdas' defining classes) that Java serialization writes for {@code value}. */
    static Set<String> classesIn(Object value) {
        try (Recorder recorder = new Recorder()) {
            recorder.writeObject(value);
            return recorder.classes;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Could not serialize " + value.getClass().getName(), e);
        }
    }

    @Override
    public void close() throws IOException {
        cluster.close();
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(jar.toString(), e);
        }
    }

    /** Records each class descriptor written, and the class that defines each serializable lambda. */
    private static final class Recorder extends ObjectOutputStream {

        private final Set<String> classes = new LinkedHashSet<>();

        Recorder() throws IOException {
            super(OutputStream.nullOutputStream());
            enableReplaceObject(true);
        }

        @Override
        protected void annotateClass(Class<?> type) {
            classes.add(type.getName());
        }

        @Override
        protected void annotateProxyClass(Class<?> type) {
            classes.add(type.getName());
        }

        @Override
        protected Object replaceObject(Object value) {
            if (value instanceof SerializedLambda lambda) {
                classes.add(lambda.getCapturingClass().replace('/', '.'));
            }
            return value;
        }
    }

    /** The cluster's own classes: the JDK's, and those of the jars every Flink cluster has. */
    private static final class FlinkOnly extends ClassLoader {

        private final ClassLoader application;
        private final Set<String> flinkJars;

        FlinkOnly(ClassLoader application, Set<String> flinkJars) {
            super("streamsplit-flink-lib", null);
            this.application = application;
            this.flinkJars = flinkJars;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            Class<?> type = application.loadClass(name);
            ClassLoader loader = type.getClassLoader();
            if (loader == null || loader == ClassLoader.getPlatformClassLoader()) {
                return type;
            }
            String jar = jarName(type);
            if (jar != null && flinkJars.contains(jar)) {
                return type;
            }
            throw new ClassNotFoundException(
                    "it is in " + (jar != null ? jar : "the application") + ", which stays on the application side");
        }

        /** Where the application loads {@code className} from, for messages. */
        static String source(ClassLoader application, String className) {
            try {
                String jar = jarName(application.loadClass(className));
                return jar != null ? jar : "the JDK";
            } catch (ClassNotFoundException | LinkageError e) {
                return "nowhere: the application cannot load it either";
            }
        }

        /** {@code .../flink-core-2.3.0.jar} or {@code jar:nested:/app.jar/!BOOT-INF/lib/flink-core-2.3.0.jar!/}. */
        private static @Nullable String jarName(Class<?> type) {
            CodeSource source = type.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return null;
            }
            String location = source.getLocation().toString();
            while (location.endsWith("/") || location.endsWith("!")) {
                location = location.substring(0, location.length() - 1);
            }
            return location.substring(location.lastIndexOf('/') + 1);
        }
    }
}
