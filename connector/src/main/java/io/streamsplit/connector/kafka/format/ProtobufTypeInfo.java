package io.streamsplit.connector.kafka.format;

import com.google.protobuf.Message;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink's type information for a generated Protobuf message class: its values travel between operators
 * and sit in state in Protobuf's own binary encoding ({@link ProtobufSerializer}). Without it a message
 * class would be a generic type for Kryo, which does not know protobuf-java's internals. Not a key type:
 * a message's {@code hashCode()} includes its descriptor's identity hash, which differs from JVM to JVM,
 * so {@code keyBy} a field of it ({@code keyBy(Payment::getAccount)}), not the message.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.ProtobufTypeInfo;
 *
 * DataStream<Payment> payments = stream.map(Payment::parseFrom).returns(new ProtobufTypeInfo<>(Payment.class));
 * }</pre>
 *
 * <p>Flink finds it for a message class on its own once {@link Factory} is registered for the class, in
 * {@code pipeline.serialization-config} ({@code com.acme.Payment: {type: typeinfo, class:
 * io.streamsplit.connector.kafka.format.ProtobufTypeInfo$Factory}}); then a lambda that returns messages
 * needs no {@code returns(...)}. The starter registers it for every {@code format: protobuf} source's type.
 *
 * @param <T> the generated message class
 */
@PublicEvolving
public final class ProtobufTypeInfo<T extends Message> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;

    public ProtobufTypeInfo(Class<T> type) {
        ProtobufFormat.parserOf(type);
        this.type = type;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return new ProtobufSerializer<>(type);
    }

    @Override
    public String toString() {
        return "Protobuf<" + type.getName() + ">";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ProtobufTypeInfo<?> that && that.type.equals(type);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ProtobufTypeInfo.class, type);
    }

    @Override
    public boolean canEqual(Object other) {
        return other instanceof ProtobufTypeInfo;
    }

    /** Gives Flink's type extraction a {@link ProtobufTypeInfo} for the message class it is registered for. */
    public static final class Factory extends TypeInfoFactory<Message> {

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public TypeInformation<Message> createTypeInfo(Type type, Map<String, TypeInformation<?>> genericParameters) {
            if (!(type instanceof Class<?> messageClass) || !Message.class.isAssignableFrom(messageClass)) {
                throw new IllegalArgumentException(
                        ProtobufTypeInfo.class.getName() + "$Factory is for Protobuf message classes, not " + type);
            }
            return new ProtobufTypeInfo(messageClass);
        }
    }
}
