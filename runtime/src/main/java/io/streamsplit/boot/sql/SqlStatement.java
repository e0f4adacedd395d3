package io.streamsplit.boot.sql;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One {@code streamsplit.sql.statements.<name>} entry: what kind of statement it is, and for an
 * {@code INSERT INTO} its target and where the query after the target starts (so that the planner's
 * line and column in that query can be told in the statement's terms).
 */
record SqlStatement(String name, String text) {

    enum Kind {
        /** {@code INSERT INTO target query}. */
        INSERT,
        /** A query on its own ({@code SELECT}, {@code WITH}, {@code VALUES}): it writes nowhere. */
        QUERY,
        /** {@code EXECUTE STATEMENT SET} or {@code BEGIN STATEMENT SET}: every statement is in one job already. */
        STATEMENT_SET,
        /** Anything else the table environment executes itself: CREATE, DROP, ALTER, USE, SET, ... */
        OTHER
    }

    private static final Pattern LEADING_COMMENTS =
            Pattern.compile("\\A(?:\\s+|--[^\\n]*(?:\\n|\\z)|/\\*.*?\\*/)*", Pattern.DOTALL);

    private static final Pattern FIRST_WORDS = Pattern.compile("([A-Za-z]+)(?:\\s+([A-Za-z]+))?");

    private static final Pattern INSERT_INTO = Pattern.compile(
            "INSERT\\s+INTO\\s+(?:`((?:[^`]|``)+)`|([A-Za-z_$][\\w$]*))(?![\\w$.`])\\s*", Pattern.CASE_INSENSITIVE);

    private static final Pattern QUERY_IN_PARENTHESES =
            Pattern.compile("\\(\\s*(?:SELECT|WITH|VALUES)\\b", Pattern.CASE_INSENSITIVE);

    private int start() {
        Matcher comments = LEADING_COMMENTS.matcher(text);
        return comments.lookingAt() ? comments.end() : 0;
    }

    Kind kind() {
        Matcher words = FIRST_WORDS.matcher(text);
        words.region(start(), text.length());
        if (!words.lookingAt()) {
            return Kind.OTHER;
        }
        String first = words.group(1).toUpperCase(Locale.ROOT);
        String second = words.group(2) == null ? "" : words.group(2).toUpperCase(Locale.ROOT);
        return switch (first) {
            case "INSERT" -> Kind.INSERT;
            case "SELECT", "WITH", "VALUES", "TABLE" -> Kind.QUERY;
            case "EXECUTE", "BEGIN" ->
                second.equals("STATEMENT") || second.equals("INSERT") ? Kind.STATEMENT_SET : Kind.OTHER;
            default -> Kind.OTHER;
        };
    }

    /**
     * The target of {@code INSERT INTO target ...} as written, without backticks; {@code null} for a qualified
     * name ({@code catalog.db.table}) or any other statement.
     */
    @Nullable
    String insertTarget() {
        Matcher insert = insertInto();
        if (insert == null) {
            return null;
        }
        return insert.group(1) != null ? insert.group(1).replace("``", "`") : insert.group(2);
    }

    /**
     * Where the query of {@code INSERT INTO target query} starts; -1 when a column list follows the target
     * ({@code INSERT INTO t (a, b) SELECT ...}).
     */
    int queryStart() {
        Matcher insert = insertInto();
        if (insert == null) {
            return -1;
        }
        int query = insert.end();
        if (query < text.length() && text.charAt(query) == '(') {
            Matcher parenthesized = QUERY_IN_PARENTHESES.matcher(text);
            parenthesized.region(query, text.length());
            return parenthesized.lookingAt() ? query : -1;
        }
        return query;
    }

    private @Nullable Matcher insertInto() {
        Matcher insert = INSERT_INTO.matcher(text);
        insert.region(start(), text.length());
        return insert.lookingAt() ? insert : null;
    }

    /** The 1-based line and column of character {@code index} of the text. */
    int[] position(int index) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < index && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new int[] {line, index - lineStart + 1};
    }
}
