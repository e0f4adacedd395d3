package io.streamsplit.boot.autoconfigure.kafka;

import io.streamsplit.boot.autoconfigure.kafka.format.KafkaFormats;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.connector.kafka.format.Keyed;
import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSourceBuilder;
import java.util.Objects;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * How a YAML source reads its records: a built-in {@code format} (and {@code key-format}), or a deserializer or
 * record-emitter bean named in YAML, with the element type it produces.
 */
final class SourceDeserializers {

    private final UserBeans beans;
    private final KafkaFormats formats;

    SourceDeserializers(UserBeans beans, KafkaFormats formats) {
        this.beans = beans;
        this.formats = formats;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    /** Sets the deserializer or record emitter of source {@code p} on {@code builder}. */
    void apply(StreamSplitKafkaSourceBuilder builder, KafkaSourceProperties source, String p) {
        KafkaFormats.checkColumns(p, source.getFormat(), source.getType(), source.getColumns());
        if (source.getFormat() != null) {
            format(builder, source, p);
            return;
        }
        if (source.getKeyFormat() != null) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "key-format",
                    source.getKeyFormat().yaml(),
                    "key-format is set but format is not; keys are read together with a built-in value format",
                    "Set " + p
                            + "format too (json, avro, avro-confluent, json-schema-confluent, protobuf, string or bytes), or read keys in a KafkaRecordDeserializer"
                            + " bean.");
        }
        if (source.getRecordEmitter() != null) {
            UserBeans.Found found = beans.find(
                    p + "record-emitter", source.getRecordEmitter(), "record emitter", KafkaRecordEmitter.class);
            beans.requireShippable(p + "record-emitter", found);
            TypeInformation type = beans.elementType(p + "type", source.getType(), found, KafkaRecordEmitter.class);
            builder.setRecordEmitter((KafkaRecordEmitter) found.bean(), type);
            if (source.getDeserializer() == null) {
                return;
            }
        }
        UserBeans.Found found = beans.find(
                p + "deserializer",
                source.getDeserializer(),
                "deserializer",
                KafkaRecordDeserializer.class,
                DeserializationSchema.class,
                KafkaRecordEmitter.class);
        beans.requireShippable(p + "deserializer", found);
        if (found.bean() instanceof DeserializationSchema<?> schema) {
            builder.setValueOnlyDeserializer(schema);
        } else if (found.bean() instanceof KafkaRecordEmitter<?> emitter) {
            builder.setRecordEmitter(
                    emitter, beans.elementType(p + "type", source.getType(), found, KafkaRecordEmitter.class));
        } else {
            TypeInformation type =
                    beans.elementType(p + "type", source.getType(), found, KafkaRecordDeserializer.class);
            builder.setDeserializer((KafkaRecordDeserializer) found.bean(), type);
        }
    }

    /** {@code format:} (and {@code key-format:}) instead of a deserializer or record-emitter bean. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void format(StreamSplitKafkaSourceBuilder builder, KafkaSourceProperties source, String p) {
        String format = Objects.requireNonNull(source.getFormat(), "format() is for a source with a format")
                .yaml();
        for (String bean : new String[] {"deserializer", "record-emitter"}) {
            Object named = bean.equals("deserializer") ? source.getDeserializer() : source.getRecordEmitter();
            if (named != null) {
                throw new InvalidStreamSplitConfigurationException(
                        p + "format",
                        format,
                        "both format '" + format + "' and " + bean + " '" + named + "' are set; a source reads with"
                                + " one of them",
                        "Remove " + p + bean + " to read with format " + format + ", or remove " + p + "format to"
                                + " read with the bean.");
            }
        }
        DeserializationSchema value = formats.reader(
                p, source.getFormat(), source.getType(), source.getColumns(), source.getSchema(), source.getCharset());
        if (source.getKeyFormat() == null) {
            builder.setValueOnlyDeserializer(value);
            return;
        }
        DeserializationSchema key = formats.keyReader(p, source.getKeyFormat(), source.getCharset());
        builder.setDeserializer(Keyed.deserializer(key, value), Keyed.typeInfo(key, value));
    }
}
