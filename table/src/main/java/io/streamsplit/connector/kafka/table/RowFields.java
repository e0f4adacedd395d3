package io.streamsplit.connector.kafka.table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.types.Row;
import org.jspecify.annotations.Nullable;

/**
 * A row of a SQL result as a map from column name to value, in column order, nested rows as maps too: what
 * the Spring Boot starter's {@code format: json} sinks write as one JSON object per row. It lives here, not in
 * the starter, because it travels in the job graph to a Flink cluster.
 */
@Internal
public final class RowFields implements MapFunction<Row, Map<String, @Nullable Object>> {

    private static final long serialVersionUID = 1L;

    private final List<String> columns;

    public RowFields(List<String> columns) {
        this.columns = List.copyOf(columns);
    }

    @Override
    public Map<String, @Nullable Object> map(Row row) {
        Map<String, @Nullable Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            fields.put(columns.get(i), value(row.getField(i)));
        }
        return fields;
    }

    private static @Nullable Object value(@Nullable Object value) {
        if (value instanceof Row nested) {
            Set<String> names = nested.getFieldNames(true);
            Map<String, @Nullable Object> fields = new LinkedHashMap<>();
            if (names != null) {
                for (String name : names) {
                    fields.put(name, value(nested.getField(name)));
                }
            } else {
                for (int i = 0; i < nested.getArity(); i++) {
                    fields.put("f" + i, value(nested.getField(i)));
                }
            }
            return fields;
        }
        if (value instanceof Object[] array) {
            List<@Nullable Object> items = new ArrayList<>(array.length);
            for (Object item : array) {
                items.add(value(item));
            }
            return items;
        }
        return value;
    }

    /** The first column of a row: what a one-column result writes to a {@code string} or {@code bytes} sink. */
    @Internal
    public static final class FirstColumn<T> implements MapFunction<Row, T> {

        private static final long serialVersionUID = 1L;

        @Override
        @SuppressWarnings("unchecked")
        public T map(Row row) {
            return (T) row.getField(0);
        }
    }
}
