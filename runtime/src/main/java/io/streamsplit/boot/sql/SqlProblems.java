package io.streamsplit.boot.sql;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what the planner says about a statement into a startup failure in the user's terms: the
 * {@code streamsplit.sql.statements.<name>} key (Spring Boot's report adds where it is defined), the line and column in the
 * statement as written (the planner counts in the query it was given, which for an {@code INSERT INTO} a YAML
 * sink starts after the target), the line with a marker under the column, and the planner's own words.
 */
final class SqlProblems {

    private static final Pattern POSITION = Pattern.compile("line (\\d+), column (\\d+)");

    /** Calcite lists every token it would have accepted; the first line says what it found, which is enough. */
    private static final Pattern EXPECTED_LIST = Pattern.compile("\\s*Was expecting( one of)?:.*", Pattern.DOTALL);

    private SqlProblems() {}

    static String key(String name) {
        return "streamsplit.sql.statements." + name;
    }

    /**
     * The failure of {@code statement}, whose planner input began at character {@code offset} of the
     * statement's text (0 when the whole statement went to the planner).
     */
    static InvalidStreamSplitConfigurationException failed(
            SqlStatement statement, int offset, RuntimeException e, String tables) {
        String said = plannerMessage(e);
        int[] shift = statement.position(offset);
        StringBuilder moved = new StringBuilder();
        Matcher position = POSITION.matcher(said);
        int[] first = null;
        while (position.find()) {
            int line = Integer.parseInt(position.group(1));
            int column = Integer.parseInt(position.group(2));
            int[] at = {line + shift[0] - 1, line == 1 ? column + shift[1] - 1 : column};
            if (first == null) {
                first = at;
            }
            position.appendReplacement(moved, "line " + at[0] + ", column " + at[1]);
        }
        position.appendTail(moved);
        StringBuilder problem =
                new StringBuilder("statement '").append(statement.name()).append("' failed");
        if (first != null) {
            problem.append(" at line ").append(first[0]).append(", column ").append(first[1]);
        }
        problem.append(": ").append(moved);
        if (first != null) {
            problem.append(marker(statement.text(), first[0], first[1]));
        }
        return new InvalidStreamSplitConfigurationException(
                key(statement.name()), statement.text().strip(), problem.toString(), "Fix the statement. " + tables, e);
    }

    /** A statement the pipeline refuses itself, before the planner sees it. */
    static InvalidStreamSplitConfigurationException refused(SqlStatement statement, String problem, String action) {
        return new InvalidStreamSplitConfigurationException(
                key(statement.name()),
                statement.text().strip(),
                "statement '" + statement.name() + "' " + problem,
                action);
    }

    /** The planner's own message: the parser's or validator's first, without Calcite's list of expected tokens. */
    static String plannerMessage(Throwable e) {
        Throwable said = e;
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            String type = cause.getClass().getSimpleName();
            if (type.equals("SqlParserException") || type.equals("ValidationException")) {
                said = cause;
                break;
            }
        }
        String message = said.getMessage() == null ? said.toString() : said.getMessage();
        return EXPECTED_LIST.matcher(message).replaceFirst("").strip();
    }

    private static String marker(String text, int line, int column) {
        String[] lines = text.split("\n", -1);
        if (line < 1 || line > lines.length) {
            return "";
        }
        String shown = lines[line - 1].stripTrailing();
        return "\n    " + shown + "\n    " + " ".repeat(Math.max(0, Math.min(column, shown.length() + 1) - 1)) + "^";
    }
}
