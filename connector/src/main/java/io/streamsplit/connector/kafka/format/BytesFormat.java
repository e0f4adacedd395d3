package io.streamsplit.connector.kafka.format;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.jspecify.annotations.Nullable;

/**
 * Values passed through as they are, {@code byte[]}.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.BytesFormat;
 *
 * builder.setValueOnlyDeserializer(BytesFormat.INSTANCE);
 * }</pre>
 */
@PublicEvolving
public final class BytesFormat extends TwoWayFormat<byte[]> {

    private static final long serialVersionUID = 1L;

    /** The one instance; the format has no settings. */
    public static final BytesFormat INSTANCE = new BytesFormat();

    private BytesFormat() {}

    @Override
    public byte @Nullable [] deserialize(byte @Nullable [] message) { // null: a tombstone, dropped
        return message;
    }

    @Override
    public byte[] serialize(byte[] element) {
        return element;
    }

    @Override
    public TypeInformation<byte[]> getProducedType() {
        return PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
