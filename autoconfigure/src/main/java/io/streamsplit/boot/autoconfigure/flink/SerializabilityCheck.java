package io.streamsplit.boot.autoconfigure.flink;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.remote.ClusterClasses;
import java.io.IOException;
import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.util.InstantiationUtil;
import org.jspecify.annotations.Nullable;

/**
 * Checks that a user bean Flink ships to its TaskManagers can be Java-serialized, and when it
 * cannot, finds the field path that holds the offending object ({@code orderEmitter.repository}),
 * so the startup error names it instead of a bare {@code NotSerializableException}.
 */
public final class SerializabilityCheck {

    private static final int MAX_DEPTH = 16;

    private SerializabilityCheck() {}

    /** Serializes {@code bean}; on failure throws an error naming the property, the bean and the field. */
    public static void requireSerializable(String property, String beanName, Object bean) {
        try {
            InstantiationUtil.serializeObject(bean);
        } catch (IOException | RuntimeException e) {
            String path = find(
                    bean,
                    beanName,
                    value -> !(value instanceof Serializable) ? value.getClass().getName() : null,
                    Collections.newSetFromMap(new IdentityHashMap<>()),
                    0);
            String where = path != null ? "field '" + path + "'" : "an object it references (" + e + ")";
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    beanName,
                    "bean '" + beanName + "' (" + bean.getClass().getName() + ") is shipped to Flink's TaskManagers,"
                            + " but " + where + " cannot be serialized",
                    "Make that field transient and create it in open(), or make its type Serializable."
                            + " Flink serializes deserializers, emitters and serializers into the job.",
                    e);
        }
    }

    /**
     * Remote mode: fails startup when {@code bean}'s serialized form needs a class the Flink cluster
     * will not have (Spring, the starter's Spring side, an excluded jar), naming the field that holds it.
     */
    public static void requireOnCluster(String property, String beanName, Object bean, ClusterClasses cluster) {
        ClusterClasses.Missing missing = cluster.missingFor(bean);
        if (missing == null) {
            return;
        }
        // the object of the missing class itself if a field holds one, else the object whose class needs it
        String path = null;
        for (String offending : List.of(missing.needed(), missing.className())) {
            path = path != null
                    ? path
                    : find(
                            bean,
                            beanName,
                            value -> offending.equals(value.getClass().getName())
                                            || offending.equals(capturingClass(value))
                                    ? offending
                                    : null,
                            Collections.newSetFromMap(new IdentityHashMap<>()),
                            0);
        }
        String where = path == null || path.startsWith(beanName + " (") ? "it" : "field '" + path + "'";
        throw new InvalidStreamSplitConfigurationException(
                property,
                beanName,
                "bean '" + beanName + "' (" + bean.getClass().getName() + ") is shipped to the Flink cluster, but "
                        + where + " needs a class the cluster will not have: " + missing,
                "Spring and the starter's Spring side are not shipped. Make that field transient and create it in"
                        + " open(), or move the code into a class whose fields and methods do not mention Spring types;"
                        + " if a library is missing, ship it with streamsplit.flink.remote.jars.");
    }

    private static @Nullable String find(
            Object value, String path, Function<Object, String> offending, Set<Object> seen, int depth) {
        if (value == null || depth > MAX_DEPTH || !seen.add(value)) {
            return null;
        }
        Class<?> type = value.getClass();
        String found = offending.apply(value);
        if (found != null) {
            return path + " (" + found + ")";
        }
        if (type.isArray() && !type.getComponentType().isPrimitive()) {
            Object[] items = (Object[]) value;
            for (int i = 0; i < items.length; i++) {
                String item = find(items[i], path + "[" + i + "]", offending, seen, depth + 1);
                if (item != null) {
                    return item;
                }
            }
            return null;
        }
        SerializedLambda lambda = serializedLambda(value);
        if (lambda != null) {
            for (int i = 0; i < lambda.getCapturedArgCount(); i++) {
                String captured =
                        find(lambda.getCapturedArg(i), path + ".<captured " + i + ">", offending, seen, depth + 1);
                if (captured != null) {
                    return captured;
                }
            }
            return null;
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.getName().startsWith("java.")) {
                break;
            }
            for (Field field : c.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())
                        || Modifier.isTransient(field.getModifiers())
                        || field.getType().isPrimitive()) {
                    continue;
                }
                Object fieldValue;
                try {
                    field.setAccessible(true);
                    fieldValue = field.get(value);
                } catch (RuntimeException | IllegalAccessException e) {
                    continue;
                }
                String name = field.getName().startsWith("this$") ? "<enclosing instance>" : field.getName();
                String inField = find(fieldValue, path + "." + name, offending, seen, depth + 1);
                if (inField != null) {
                    return inField;
                }
            }
        }
        return null;
    }

    /** The class that defines {@code value} when it is a serializable lambda, else null. */
    private static @Nullable String capturingClass(Object value) {
        SerializedLambda lambda = serializedLambda(value);
        return lambda != null ? lambda.getCapturingClass().replace('/', '.') : null;
    }

    /** A serializable lambda's captured arguments, through its synthetic {@code writeReplace}. */
    private static @Nullable SerializedLambda serializedLambda(Object value) {
        if (!value.getClass().isSynthetic()) {
            return null;
        }
        try {
            Method writeReplace = value.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            Object replacement = writeReplace.invoke(value);
            return replacement instanceof SerializedLambda lambda ? lambda : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
