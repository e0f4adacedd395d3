package io.streamsplit.boot.sql;

import io.streamsplit.pipeline.PipelineContext;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * The table environment of a job build, shared by the {@code streamsplit.sql} statements and the
 * application's {@code StreamSplitPipeline} beans: a bean reads a view the statements created as a stream,
 * or gives the statements a stream as a table. The statements run before the beans unless a bean is
 * ordered before them ({@code @Order} below 0).
 *
 * <pre>{@code
 * import io.streamsplit.boot.sql.SqlTables;
 * import org.apache.flink.api.common.typeinfo.Types;
 * import io.streamsplit.pipeline.StreamSplitPipeline;
 * import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
 * import org.springframework.context.annotation.Bean;
 *
 * @Bean
 * StreamSplitPipeline alerts() {
 *     return pipeline -> {
 *         StreamTableEnvironment tables = SqlTables.of(pipeline);
 *         pipeline.sink("alerts", tables.toDataStream(tables.from("big_orders"))
 *                 .map(row -> "big order " + row.getField("id"))
 *                 .returns(Types.STRING));
 *     };
 * }
 * }</pre>
 */
public final class SqlTables {

    private static final Map<PipelineContext, StreamTableEnvironment> BUILDS = new WeakHashMap<>();

    private SqlTables() {}

    /** The table environment of the job {@code pipeline} builds; made on first use, on its environment. */
    public static StreamTableEnvironment of(PipelineContext pipeline) {
        synchronized (BUILDS) {
            return BUILDS.computeIfAbsent(pipeline, context -> StreamTableEnvironment.create(context.environment()));
        }
    }
}
