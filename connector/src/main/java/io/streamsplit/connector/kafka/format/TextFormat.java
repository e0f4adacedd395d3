package io.streamsplit.connector.kafka.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.jspecify.annotations.Nullable;

/**
 * Values as text in one charset; a record without a value (a tombstone) is dropped. Bytes that are not
 * text in that charset fail the record (its source's bad-record policy decides what follows) instead of
 * being read as replacement characters.
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
    public @Nullable String deserialize(byte @Nullable [] message) throws IOException {
        if (message == null) {
            return null; // a tombstone, dropped
        }
        try {
            return charset()
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(message))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IOException("Not " + charset + " text (" + message.length + " bytes): " + e, e);
        }
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
