package io.streamsplit.boot.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import org.junit.jupiter.api.Test;

/** How a statement is told apart, and how the planner's position in an insert's query becomes the statement's. */
class SqlStatementTest {

    @Test
    void kindsAreToldByTheFirstWordsAfterComments() {
        assertThat(new SqlStatement("a", "-- totals\n  /* per customer */ insert into t select 1").kind())
                .isEqualTo(SqlStatement.Kind.INSERT);
        assertThat(new SqlStatement("a", "WITH x AS (SELECT 1) SELECT * FROM x").kind())
                .isEqualTo(SqlStatement.Kind.QUERY);
        assertThat(new SqlStatement("a", "EXECUTE STATEMENT SET BEGIN INSERT INTO t SELECT 1; END").kind())
                .isEqualTo(SqlStatement.Kind.STATEMENT_SET);
        assertThat(new SqlStatement("a", "CREATE TEMPORARY VIEW v AS SELECT 1").kind())
                .isEqualTo(SqlStatement.Kind.OTHER);
    }

    @Test
    void anInsertsTargetAndWhereItsQueryStarts() {
        SqlStatement plain = new SqlStatement("a", "INSERT INTO totals SELECT 1");
        assertThat(plain.insertTarget()).isEqualTo("totals");
        assertThat(plain.text().substring(plain.queryStart())).isEqualTo("SELECT 1");
        SqlStatement quoted = new SqlStatement("a", "insert into `order-totals`\n(SELECT 1)");
        assertThat(quoted.insertTarget()).isEqualTo("order-totals");
        assertThat(quoted.text().substring(quoted.queryStart())).isEqualTo("(SELECT 1)");
        SqlStatement columns = new SqlStatement("a", "INSERT INTO totals (a, b) SELECT 1, 2");
        assertThat(columns.insertTarget()).isEqualTo("totals");
        assertThat(columns.queryStart()).isEqualTo(-1);
        assertThat(new SqlStatement("a", "INSERT INTO cat.db.totals SELECT 1").insertTarget())
                .isNull();
    }

    @Test
    void thePlannersPositionInTheQueryIsToldInTheStatement() {
        SqlStatement statement = new SqlStatement("totals", "INSERT INTO totals SELECT amout\nFROM orders");
        InvalidStreamSplitConfigurationException failure = SqlProblems.failed(
                statement,
                statement.queryStart(),
                new IllegalStateException(
                        "SQL validation failed. From line 1, column 8 to line 1, column 12: Column 'amout' not found"),
                "Its tables: ...");
        assertThat(failure.getProperty()).isEqualTo("streamsplit.sql.statements.totals");
        assertThat(failure.getProblem())
                .startsWith("statement 'totals' failed at line 1,"
                        + " column 27: SQL validation failed. From line 1, column 27 to line 1, column 31")
                .endsWith("\n    INSERT INTO totals SELECT amout\n                              ^");
        InvalidStreamSplitConfigurationException secondLine = SqlProblems.failed(
                statement,
                statement.queryStart(),
                new IllegalStateException("SQL parse failed. Encountered \"orders\" at line 2, column 6.\n"
                        + "Was expecting one of:\n    \"ORDER\" ...\n"),
                "Its tables: ...");
        assertThat(secondLine.getProblem())
                .isEqualTo("statement 'totals' failed at line 2, column 6: SQL parse failed. Encountered \"orders\" at"
                        + " line 2, column 6.\n    FROM orders\n         ^");
    }
}
