package io.streamsplit.boot.test.sql;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An application that is only YAML: its job is the streamsplit.sql statements of application-sql.yml. */
@SpringBootApplication
public class SqlKitApplication {

    /** What topic {@code payments} carries, as JSON. */
    public record Payment(String id, String account, long cents) {}
}
