package io.streamsplit.connector.kafka.format;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.util.InstantiationUtil;
import org.jspecify.annotations.Nullable;

/**
 * A generated Protobuf message between operators and in state: its length, then its binary encoding.
 * Messages are immutable, so copies are the message itself. A snapshot records the class; state written
 * by an older version of the class restores as protobuf reads any version of a message (unknown fields
 * kept, missing ones at their defaults), so the serializer stays compatible as the class evolves.
 */
final class ProtobufSerializer<T extends Message> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private transient @Nullable Parser<T> parser;

    ProtobufSerializer(Class<T> type) {
        this.type = type;
    }

    private Parser<T> parser() {
        if (parser == null) {
            parser = ProtobufFormat.parserOf(type);
        }
        return parser;
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<T> duplicate() {
        return this;
    }

    @Override
    public T createInstance() {
        return defaultInstance();
    }

    @SuppressWarnings("unchecked")
    private T defaultInstance() {
        try {
            return (T) type.getMethod("getDefaultInstance").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public T copy(T from) {
        return from;
    }

    @Override
    public T copy(T from, T reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        byte[] bytes = record.toByteArray();
        target.writeInt(bytes.length);
        target.write(bytes);
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        byte[] bytes = new byte[source.readInt()];
        source.readFully(bytes);
        return parser().parseFrom(bytes);
    }

    @Override
    public T deserialize(T reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int length = source.readInt();
        target.writeInt(length);
        target.write(source, length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ProtobufSerializer<?> that && that.type.equals(type);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ProtobufSerializer.class, type);
    }

    @Override
    public TypeSerializerSnapshot<T> snapshotConfiguration() {
        return new Snapshot<>(type);
    }

    /** The message class, by name; version 1. */
    public static final class Snapshot<T extends Message> implements TypeSerializerSnapshot<T> {

        private @Nullable Class<T> type;

        /** For Flink, which reads the class with {@link #readSnapshot}. */
        public Snapshot() {}

        Snapshot(Class<T> type) {
            this.type = type;
        }

        @Override
        public int getCurrentVersion() {
            return 1;
        }

        @Override
        public void writeSnapshot(DataOutputView out) throws IOException {
            out.writeUTF(Objects.requireNonNull(type).getName());
        }

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader) throws IOException {
            type = InstantiationUtil.resolveClassByName(in, classLoader);
        }

        @Override
        public TypeSerializer<T> restoreSerializer() {
            return new ProtobufSerializer<>(Objects.requireNonNull(type));
        }

        @Override
        public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(TypeSerializerSnapshot<T> oldSnapshot) {
            return oldSnapshot instanceof Snapshot<T> old && Objects.equals(old.type, type)
                    ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                    : TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
