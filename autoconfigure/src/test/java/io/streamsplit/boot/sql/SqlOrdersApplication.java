package io.streamsplit.boot.sql;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** An application without a line of pipeline code: its job is the streamsplit.sql statements of the test. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class SqlOrdersApplication {

    /** What topic {@code orders} carries, as JSON. */
    public record Order(String id, String customer, long amount) {}
}
