package io.streamsplit.boot.kafka;

/**
 * Something the Kafka startup check found that keeps a source or sink from working: which property,
 * its value, what is wrong and what to do.
 *
 * @param property the {@code streamsplit.*} (or {@code spring.kafka.*}) property the problem is about
 * @param value the value as configured
 * @param problem what is wrong
 * @param action how to fix it
 */
public record KafkaProblem(String property, String value, String problem, String action) {

    /** {@code property = 'value': problem}, for one line of a log or a health detail. */
    public String summary() {
        return property + " = '" + value + "': " + problem;
    }
}
