package io.streamsplit.connector.kafka.format;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.jspecify.annotations.Nullable;

/**
 * Values as text in one charset; a record without a value (a tombstone) is dropped.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.TextFormat;
 *
 * builder.setValueOnlyDeserializer(TextFormat.of(StandardCharsets.ISO_8859_1));
 * }</pre>
 */
@PublicEvolving
public final class TextFormat extends TwoWayFormat<String> {

    private static final long serialVersionUID = 1L;

    private final String charset;
    private transient @Nullable Charset resolved;

    private TextFormat(Charset charset) {
        this.charset = charset.name();
    }

    /** UTF-8 text. */
    public static TextFormat utf8() {
        return of(StandardCharsets.UTF_8);
    }

    /** Text in {@code charset}. */
    public static TextFormat of(Charset charset) {
        return new TextFormat(charset);
    }

    private Charset charset() {
        if (resolved == null) {
            resolved = Charset.forName(charset);
        }
        return resolved;
    }

    @Override
    public @Nullable String deserialize(byte @Nullable [] message) {
        return message == null ? null : new String(message, charset()); // null: a tombstone, dropped
    }

    @Override
    public byte[] serialize(String element) {
        return element.getBytes(charset());
    }

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }
}
