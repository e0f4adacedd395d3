package io.streamsplit.connector.kafka.sink;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.jspecify.annotations.Nullable;

/**
 * The Kafka key of a sink record: one record component, public field or getter of the element (or the
 * entry of that name of a {@link Map} element, as the starter's SQL sinks write rows), as UTF-8 text
 * ({@code byte[]} values as they are; {@code null} gives no key). Used by the Spring Boot
 * starter for a sink's {@code key:}; it lives here because it travels in the job graph.
 *
 * @param <T> the element type
 */
@Internal
public final class ElementFieldKey<T> implements SerializationSchema<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final String field;
    private transient @Nullable Method accessor;
    private transient @Nullable Field publicField;

    private ElementFieldKey(Class<T> type, String field) {
        this.type = type;
        this.field = field;
    }

    /**
     * The key {@code field} of {@code type}.
     *
     * @throws IllegalArgumentException if {@code type} has no such record component, public field or getter
     */
    public static <T> ElementFieldKey<T> of(Class<T> type, String field) {
        ElementFieldKey<T> key = new ElementFieldKey<>(type, field);
        key.resolve();
        return key;
    }

    private void resolve() {
        if (accessor != null || publicField != null || Map.class.isAssignableFrom(type)) {
            return;
        }
        if (type.isRecord()) {
            for (RecordComponent component : type.getRecordComponents()) {
                if (component.getName().equals(field)) {
                    accessor = component.getAccessor();
                    return;
                }
            }
        }
        for (Field candidate : type.getFields()) {
            if (candidate.getName().equals(field) && !Modifier.isStatic(candidate.getModifiers())) {
                publicField = candidate;
                return;
            }
        }
        String capitalized = Character.toUpperCase(field.charAt(0)) + field.substring(1);
        for (String getter : new String[] {"get" + capitalized, "is" + capitalized}) {
            try {
                accessor = type.getMethod(getter);
                return;
            } catch (NoSuchMethodException notThisOne) {
                // try the next form
            }
        }
        throw new IllegalArgumentException(type.getName() + " has no record component, public field or getter named '"
                + field + "'; its fields are " + fieldsOf(type));
    }

    /** The names a key can be read from: record components, public fields and getters ({@code getX}, {@code isX}). */
    public static java.util.SortedSet<String> fieldsOf(Class<?> type) {
        java.util.SortedSet<String> names = new java.util.TreeSet<>();
        if (type.isRecord()) {
            for (RecordComponent component : type.getRecordComponents()) {
                names.add(component.getName());
            }
        }
        for (Field candidate : type.getFields()) {
            if (!Modifier.isStatic(candidate.getModifiers())) {
                names.add(candidate.getName());
            }
        }
        java.util.Set<String> library = libraryGetters(type);
        for (java.lang.reflect.Method method : type.getMethods()) {
            String name = method.getName();
            int prefix = name.startsWith("get") ? 3 : name.startsWith("is") ? 2 : 0;
            if (prefix > 0
                    && name.length() > prefix
                    && method.getParameterCount() == 0
                    && !Modifier.isStatic(method.getModifiers())
                    && !name.equals("getClass")
                    && !library.contains(name)) {
                names.add(Character.toLowerCase(name.charAt(prefix)) + name.substring(prefix + 1));
            }
        }
        return names;
    }

    /**
     * Getters a generated Protobuf message has from protobuf-java's own types ({@code getSerializedSize},
     * {@code getDescriptorForType}, ...): no fields of the message, so not offered as keys.
     */
    private static java.util.Set<String> libraryGetters(Class<?> type) {
        java.util.Set<String> names = new java.util.HashSet<>();
        java.util.Deque<Class<?>> supertypes = new java.util.ArrayDeque<>();
        supertypes.add(type);
        while (!supertypes.isEmpty()) {
            Class<?> next = supertypes.pop();
            if (next.getName().startsWith("com.google.protobuf.")) {
                for (java.lang.reflect.Method method : next.getMethods()) {
                    names.add(method.getName());
                }
            }
            if (next.getSuperclass() != null) {
                supertypes.add(next.getSuperclass());
            }
            supertypes.addAll(java.util.List.of(next.getInterfaces()));
        }
        return names;
    }

    @Override
    public byte @Nullable [] serialize(T element) {
        resolve();
        Object value;
        try {
            value = element instanceof Map<?, ?> map
                    ? map.get(field)
                    : accessor != null
                            ? accessor.invoke(element)
                            : Objects.requireNonNull(publicField).get(element);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot read key '" + field + "' of " + element, e);
        }
        if (value == null) {
            return null;
        }
        return value instanceof byte[] bytes ? bytes : String.valueOf(value).getBytes(StandardCharsets.UTF_8);
    }
}
