package io.streamsplit.boot.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;

/**
 * The rows a fault or lifecycle test measures, one per scenario, logged as one Markdown table when the test class
 * is done: the tables in docs/chaos.md and docs/deployment.md are copied from such a log.
 *
 * <pre>{@code
 * static final ResultTable TABLE = new ResultTable("scenario", "in", "out", "lost");
 * TABLE.add("| kill -9 | 5000 | 5000 | 0 |");
 * TABLE.log(LOG, "Chaos table (5000 ids per scenario)");
 * }</pre>
 */
public final class ResultTable {

    private final List<String> columns;
    private final List<String> rows = new CopyOnWriteArrayList<>();

    public ResultTable(String... columns) {
        this.columns = List.of(columns);
    }

    /** A measured row, written as Markdown: {@code | a | b |}. */
    public void add(String row) {
        rows.add(row);
    }

    /** Logs {@code title}, the header and every row added, in the order added. */
    public void log(Logger log, String title) {
        List<String> lines = new ArrayList<>();
        lines.add(title + ":");
        lines.add("| " + String.join(" | ", columns) + " |");
        lines.add("|" + " --- |".repeat(columns.size()));
        lines.addAll(rows);
        log.info(String.join(System.lineSeparator(), lines));
    }
}
