package io.streamsplit.boot.autoconfigure;

import java.io.IOException;
import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.apache.flink.util.InstantiationUtil;

/**
 * Checks that a user bean Flink ships to its TaskManagers can be Java-serialized, and when it
 * cannot, finds the field path that holds the offending object ({@code orderEmitter.repository}),
 * so the startup error names it instead of a bare {@code NotSerializableException}.
 */
final class SerializabilityCheck {

    private static final int MAX_DEPTH = 16;

    private SerializabilityCheck() {
    }

    /** Serializes {@code bean}; on failure throws an error naming the property, the bean and the field. */
    static void requireSerializable(String property, String beanName, Object bean) {
        try {
            InstantiationUtil.serializeObject(bean);
        } catch (IOException | RuntimeException e) {
            String path = findNonSerializable(bean, beanName, Collections.newSetFromMap(new IdentityHashMap<>()), 0);
            String where = path != null ? "field '" + path + "'" : "an object it references (" + e + ")";
            throw new InvalidStreamSplitConfigurationException(property, beanName,
                    "bean '" + beanName + "' (" + bean.getClass().getName() + ") is shipped to Flink's TaskManagers,"
                            + " but " + where + " cannot be serialized",
                    "Make that field transient and create it in open(), or make its type Serializable."
                            + " Flink serializes deserializers, emitters and serializers into the job.", e);
        }
    }

    private static String findNonSerializable(Object value, String path, Set<Object> seen, int depth) {
        if (value == null || depth > MAX_DEPTH || !seen.add(value)) {
            return null;
        }
        Class<?> type = value.getClass();
        if (!(value instanceof Serializable)) {
            return path + " (" + type.getName() + ")";
        }
        if (type.isArray() && !type.getComponentType().isPrimitive()) {
            Object[] items = (Object[]) value;
            for (int i = 0; i < items.length; i++) {
                String found = findNonSerializable(items[i], path + "[" + i + "]", seen, depth + 1);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
        SerializedLambda lambda = serializedLambda(value);
        if (lambda != null) {
            for (int i = 0; i < lambda.getCapturedArgCount(); i++) {
                String found = findNonSerializable(lambda.getCapturedArg(i), path + ".<captured " + i + ">", seen,
                        depth + 1);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.getName().startsWith("java.")) {
                break;
            }
            for (Field field : c.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || Modifier.isTransient(field.getModifiers())
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
                String found = findNonSerializable(fieldValue, path + "." + name, seen, depth + 1);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** A serializable lambda's captured arguments, through its synthetic {@code writeReplace}. */
    private static SerializedLambda serializedLambda(Object value) {
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
