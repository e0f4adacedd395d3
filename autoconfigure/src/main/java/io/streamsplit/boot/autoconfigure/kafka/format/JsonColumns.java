package io.streamsplit.boot.autoconfigure.kafka.format;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.connector.kafka.format.JsonRowFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;

/**
 * A source's {@code columns}: JSON values read into Flink Rows of the declared names and SQL types, so a
 * topic needs no Java class to be a SQL table. The SQL types map to the row's field types here; the exact
 * type (a DECIMAL's precision, a TIMESTAMP's) is the table column's, declared by the SQL pipeline.
 */
final class JsonColumns {

    /** SQL type names (with their arguments, if any, left out) and the field type each is read into. */
    private static final Map<String, TypeInformation<?>> TYPES = new LinkedHashMap<>();

    static {
        TYPES.put("STRING", Types.STRING);
        TYPES.put("VARCHAR", Types.STRING);
        TYPES.put("CHAR", Types.STRING);
        TYPES.put("BOOLEAN", Types.BOOLEAN);
        TYPES.put("TINYINT", Types.BYTE);
        TYPES.put("SMALLINT", Types.SHORT);
        TYPES.put("INT", Types.INT);
        TYPES.put("INTEGER", Types.INT);
        TYPES.put("BIGINT", Types.LONG);
        TYPES.put("FLOAT", Types.FLOAT);
        TYPES.put("DOUBLE", Types.DOUBLE);
        TYPES.put("DECIMAL", Types.BIG_DEC);
        TYPES.put("DATE", Types.LOCAL_DATE);
        TYPES.put("TIMESTAMP", Types.LOCAL_DATE_TIME);
        TYPES.put("TIMESTAMP_LTZ", Types.INSTANT);
        TYPES.put("BYTES", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
        TYPES.put("VARBINARY", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    }

    /** A name, optionally with arguments: {@code DECIMAL(10, 2)}, {@code TIMESTAMP(3)}, {@code VARCHAR(20)}. */
    private static final Pattern SQL_TYPE =
            Pattern.compile("\\s*([A-Za-z_]+)\\s*(\\(\\s*\\d+\\s*(,\\s*\\d+\\s*)?\\))?\\s*");

    private JsonColumns() {}

    /** The reader of {@code columns} ({@code p} the source's property prefix). */
    static JsonRowFormat format(String p, Map<String, String> columns) {
        String[] names = new String[columns.size()];
        TypeInformation<?>[] types = new TypeInformation<?>[names.length];
        int i = 0;
        for (Map.Entry<String, String> column : columns.entrySet()) {
            names[i] = column.getKey();
            types[i] = fieldType(p + "columns." + column.getKey(), column.getValue());
            i++;
        }
        return JsonRowFormat.of(new RowTypeInfo(types, names));
    }

    private static TypeInformation<?> fieldType(String property, String sqlType) {
        Matcher matcher = SQL_TYPE.matcher(sqlType);
        TypeInformation<?> type = matcher.matches() ? TYPES.get(matcher.group(1).toUpperCase(Locale.ROOT)) : null;
        if (type == null) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    sqlType,
                    "not a column type a JSON value is read into",
                    "Use one of " + TYPES.keySet() + " (with a precision where SQL takes one, e.g. DECIMAL(10, 2),"
                            + " TIMESTAMP(3)); a column missing from a value is NULL.");
        }
        return type;
    }
}
