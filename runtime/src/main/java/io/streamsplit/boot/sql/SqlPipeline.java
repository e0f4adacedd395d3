package io.streamsplit.boot.sql;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaSinks;
import io.streamsplit.boot.kafka.KafkaSources;
import io.streamsplit.connector.kafka.table.RowFields;
import io.streamsplit.connector.kafka.table.StreamSplitTableOptions;
import io.streamsplit.pipeline.PipelineContext;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.CompositeType;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.types.Row;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;

/**
 * The {@code streamsplit.sql.statements}, run as one more pipeline of the job. Each source a statement names
 * is a table of that name: its columns are the fields of the source's elements (POJOs, records and Avro
 * classes; the declared {@code columns} of a JSON source without a type; {@code text} for {@code format:
 * string}, {@code data} for {@code bytes}) plus {@code rowtime}, the
 * record's timestamp, which is the event-time attribute when the source has {@code watermarks}. The source is
 * the same operator the beans get, so its bad-record policy, dead letters, controls and meters apply.
 *
 * <p>{@code INSERT INTO} a YAML sink writes through that sink (its delivery guarantee, transactions, uid and
 * key): {@code format: json} one object per row, {@code string} and {@code bytes} a one-column result.
 * {@code INSERT INTO} a table a {@code CREATE TABLE} statement declares goes through Flink's own connector;
 * all inserts run in the application's one job. The other statements ({@code CREATE VIEW}, {@code CREATE TABLE},
 * {@code CREATE FUNCTION}, {@code SET}) run first, in the order written, then the inserts.
 */
public final class SqlPipeline implements StreamSplitPipeline, Ordered {

    /** The column of every source table holding the Kafka record's timestamp (or the one its assigner chose). */
    public static final String ROWTIME = "rowtime";

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final TypeInformation<Map<String, @Nullable Object>> ROW_MAPS =
            (TypeInformation) TypeInformation.of(Map.class);

    private static final TypeInformation<byte[]> BYTES = PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;

    private final List<SqlStatement> statements;
    private final KafkaSources sources;
    private final Supplier<List<String>> sourceNames;
    private final KafkaSinks configuredSinks;
    private final @Nullable String controlTopic;

    /**
     * @param statements the statements by name, in order
     * @param sourceNames the sources the statements may read: the YAML sources and source beans
     * @param controlTopic the application's control topic, which {@code 'streamsplit-kafka'} tables the statements
     *     declare take commands from unless they name their own
     */
    public SqlPipeline(
            Map<String, String> statements,
            KafkaSources sources,
            Supplier<List<String>> sourceNames,
            KafkaSinks sinks,
            @Nullable String controlTopic) {
        // the inserts last: none creates what another statement reads, and a property source without an order
        // (a HashMap of default properties) then cannot put an insert before the view it reads
        this.statements = statements.entrySet().stream()
                .map(entry -> new SqlStatement(entry.getKey(), entry.getValue()))
                .sorted(Comparator.comparing(statement -> statement.kind() == SqlStatement.Kind.INSERT))
                .toList();
        this.sources = sources;
        this.sourceNames = sourceNames;
        this.configuredSinks = sinks;
        this.controlTopic = controlTopic;
    }

    /** Before the beans (whose order is the lowest unless they say otherwise), so they can read its views. */
    @Override
    public int getOrder() {
        return 0;
    }

    @Override
    public void build(PipelineContext pipeline) {
        Map<String, KafkaSinks.Configured> sinks = configuredSinks.configured();
        StreamTableEnvironment tables = tables(pipeline);
        if (controlTopic != null) {
            tables.getConfig().set(StreamSplitTableOptions.DEFAULT_CONTROL_TOPIC, controlTopic);
        }
        List<String> registered = new ArrayList<>();
        for (String source : sourceNames.get()) {
            if (statements.stream().anyMatch(statement -> names(statement.text(), source))) {
                register(tables, pipeline, source);
                registered.add(source);
            }
        }
        String known = "Its tables: the sources " + registered + " as named under streamsplit.kafka.sources (columns:"
                + " the fields of their type or their columns, plus " + ROWTIME + "), the sinks " + sinks.keySet()
                + ", and what earlier statements create; a name with a '-' goes in backticks (`order-totals`).";
        StreamStatementSet inserts = tables.createStatementSet();
        int toTables = 0;
        for (SqlStatement statement : statements) {
            switch (statement.kind()) {
                case QUERY ->
                    throw SqlProblems.refused(
                            statement,
                            "is a query on its own, which writes nowhere",
                            "Write INSERT INTO <sink> SELECT ..., with one of the sinks " + sinks.keySet()
                                    + " or a table a CREATE TABLE statement declares.");
                case STATEMENT_SET ->
                    throw SqlProblems.refused(
                            statement,
                            "is a statement set",
                            "Give each INSERT INTO a statement of its own: all of them run in the application's"
                                    + " one job already.");
                case INSERT -> {
                    String target = statement.insertTarget();
                    if (target != null && sinks.containsKey(target)) {
                        insertIntoSink(tables, pipeline, statement, target, known);
                    } else {
                        run(statement, 0, known, () -> inserts.addInsertSql(statement.text()));
                        toTables++;
                    }
                }
                case OTHER -> run(statement, 0, known, () -> tables.executeSql(statement.text()));
            }
        }
        if (toTables > 0) {
            inserts.attachAsDataStream();
        }
    }

    private static StreamTableEnvironment tables(PipelineContext pipeline) {
        try {
            return SqlTables.of(pipeline);
        } catch (RuntimeException e) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.sql.statements",
                    null,
                    "Flink's table planner cannot start (" + e.getMessage() + ")",
                    "Add io.streamsplit:streamsplit-sql-spring-boot-starter, which brings the planner"
                            + " (flink-table-planner-loader) and the table runtime.",
                    e);
        }
    }

    /** Whether {@code text} has {@code name} as a word of its own, or in backticks. */
    private static boolean names(String text, String name) {
        return Pattern.compile("(?<![\\w$])" + Pattern.quote(name) + "(?![\\w$])", Pattern.CASE_INSENSITIVE)
                .matcher(text)
                .find();
    }

    private void register(StreamTableEnvironment tables, PipelineContext pipeline, String name) {
        DataStream<Object> stream = pipeline.source(name);
        TypeInformation<Object> type = stream.getType();
        if (type instanceof GenericTypeInfo<?>) {
            throw new InvalidStreamSplitConfigurationException(
                    KafkaSources.prefix(name) + "type",
                    type.getTypeClass().getName(),
                    "a SQL statement reads source '" + name + "', whose elements Flink sees as a generic type:"
                            + " SQL cannot see their fields",
                    "Read into a record or a POJO (public fields, or getters and setters, and a no-argument"
                            + " constructor), whose fields become the table's columns.");
        }
        boolean atomic = !(type instanceof CompositeType<?>);
        boolean rowtime = atomic
                || !Arrays.asList(((CompositeType<?>) type).getFieldNames()).contains(ROWTIME);
        Schema.Builder schema = Schema.newBuilder();
        // declared columns keep their SQL types exactly (DECIMAL(10, 2), not the BigDecimal field's default)
        Map<String, String> columns = sources.columns(name);
        columns.forEach(schema::column);
        if (rowtime) {
            schema.columnByMetadata(ROWTIME, "TIMESTAMP_LTZ(3)");
            if (sources.hasEventTime(name)) {
                schema.watermark(ROWTIME, "SOURCE_WATERMARK()");
            }
        }
        Table table = tables.fromDataStream(stream, schema.build());
        if (atomic) {
            String column = type.equals(Types.STRING) ? "text" : "data";
            table = rowtime ? table.as(column, ROWTIME) : table.as(column);
        }
        tables.createTemporaryView(quoted(name), table);
    }

    private void insertIntoSink(
            StreamTableEnvironment tables,
            PipelineContext pipeline,
            SqlStatement statement,
            String sinkName,
            String known) {
        int queryStart = statement.queryStart();
        if (queryStart < 0) {
            throw SqlProblems.refused(
                    statement,
                    "lists the columns of sink '" + sinkName + "'",
                    "Leave the list out and name the columns in the SELECT (SELECT a AS name, ...): the sink"
                            + " writes the query's columns by their names.");
        }
        String query = statement.text().substring(queryStart);
        Table result = run(statement, queryStart, known, () -> tables.sqlQuery(query));
        List<String> columns = result.getResolvedSchema().getColumnNames();
        KafkaSinks.Configured sink = Objects.requireNonNull(
                configuredSinks.configured().get(sinkName), "a sink the statement names was checked to exist");
        DataStream<Row> rows = appended(tables, statement, sinkName, result, known);
        String p = "streamsplit.kafka.sinks." + sinkName + ".";
        if (sink.key() != null && !columns.contains(sink.key())) {
            throw new InvalidStreamSplitConfigurationException(
                    p + "key",
                    sink.key(),
                    "statement '" + statement.name() + "' writes rows with the columns " + columns
                            + ", and none is named '" + sink.key() + "'",
                    "Set " + p + "key to one of " + columns + ", or name a column so in the SELECT (" + "... AS "
                            + sink.key() + ").");
        }
        DataStream<?> written = sink.format() == null
                ? rows // for a serializer bean of Row
                : switch (sink.format()) {
                    case JSON ->
                        rows.map(new RowFields(columns)).returns(ROW_MAPS).name(statement.name());
                    case STRING -> {
                        requireOneColumn(statement, result, p, LogicalTypeFamily.CHARACTER_STRING, "STRING");
                        yield rows.map(new RowFields.FirstColumn<String>())
                                .returns(Types.STRING)
                                .name(statement.name());
                    }
                    case BYTES -> {
                        requireOneColumn(statement, result, p, LogicalTypeFamily.BINARY_STRING, "BYTES");
                        yield rows.map(new RowFields.FirstColumn<byte[]>())
                                .returns(BYTES)
                                .name(statement.name());
                    }
                    case AVRO, PROTOBUF ->
                        throw SqlProblems.refused(
                                statement,
                                "writes to sink '" + sinkName + "', which has format "
                                        + sink.format().yaml(),
                                "Write json, string or bytes from SQL, or declare a table with CREATE TABLE ... WITH"
                                        + " ('connector' = 'kafka', 'format' = '"
                                        + sink.format().yaml()
                                        + "', ...) and INSERT INTO it.");
                    case AVRO_CONFLUENT, JSON_SCHEMA_CONFLUENT ->
                        throw SqlProblems.refused(
                                statement,
                                "writes to sink '" + sinkName + "', which has format "
                                        + sink.format().yaml(),
                                "Write json, string or bytes from SQL, or write to this sink from a"
                                        + " StreamSplitPipeline bean.");
                };
        pipeline.sink(sinkName, written);
    }

    /** The rows of {@code result} as a stream; a result that updates rows it wrote is refused, saying what to do. */
    private static DataStream<Row> appended(
            StreamTableEnvironment tables, SqlStatement statement, String sinkName, Table result, String known) {
        try {
            return tables.toDataStream(result);
        } catch (TableException e) {
            if (String.valueOf(e.getMessage()).contains("doesn't support consuming update")) {
                throw SqlProblems.refused(
                        statement,
                        "produces updates (an aggregate or a join without a window changes rows it already wrote), and"
                                + " sink '" + sinkName + "' appends records to its topic",
                        "Aggregate over a window (TUMBLE, HOP, CUMULATE on rowtime), or declare an upsert table with"
                                + " CREATE TABLE ... (..., PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' ="
                                + " 'upsert-kafka', ...) in a statement and INSERT INTO that.");
            }
            throw SqlProblems.failed(statement, 0, e, known);
        } catch (RuntimeException e) {
            throw SqlProblems.failed(statement, 0, e, known);
        }
    }

    private static void requireOneColumn(
            SqlStatement statement, Table result, String p, LogicalTypeFamily family, String sqlType) {
        List<DataType> types = result.getResolvedSchema().getColumnDataTypes();
        if (types.size() != 1 || !types.get(0).getLogicalType().is(family)) {
            throw SqlProblems.refused(
                    statement,
                    "writes the columns " + result.getResolvedSchema().getColumnNames() + " of types " + types
                            + " to a sink that takes one " + sqlType + " column (" + p + "format)",
                    "Select one " + sqlType + " column, or set " + p + "format to json to write the columns as a"
                            + " JSON object.");
        }
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static <T> T run(SqlStatement statement, int offset, String known, Supplier<T> step) {
        try {
            return step.get();
        } catch (InvalidStreamSplitConfigurationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw SqlProblems.failed(statement, offset, e, known);
        }
    }
}
