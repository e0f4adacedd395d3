package io.streamsplit.boot.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.ContextCustomizerFactories;

/**
 * A {@link SpringBootTest} for a StreamSplit application: a real in-JVM KRaft broker that every
 * source, sink and dead-letter topic points at, the configured topics created, and the job running on
 * the embedded Flink MiniCluster with test-friendly settings before the first test method starts.
 * Inject a {@link PipelineTester} to send, read and wait.
 *
 * <pre>{@code
 * import io.streamsplit.boot.test.PipelineTester;
 * import io.streamsplit.boot.test.StreamSplitTest;
 * import org.junit.jupiter.api.Test;
 * import org.springframework.beans.factory.annotation.Autowired;
 *
 * @StreamSplitTest
 * class UppercaseTest {
 *     @Autowired PipelineTester pipeline;
 *
 *     @Test
 *     void uppercases() {
 *         pipeline.send("words", "k", "hello");
 *         assertThat(pipeline.awaitRecords("upper", 1).get(0).value()).isEqualTo("HELLO");
 *     }
 * }
 * }</pre>
 *
 * <p>Test classes with the same configuration share one application context, and so one broker and
 * one running job (Spring's context cache): give each test its own keys, or read what it sent with
 * {@link PipelineTester#awaitRecords(String, int, java.util.function.Predicate)}. Properties set in
 * {@link #properties()} win over the defaults this annotation sets, which win over
 * {@code application.yml}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest
@ContextCustomizerFactories(StreamSplitTestContextCustomizerFactory.class)
public @interface StreamSplitTest {

    /** Extra properties ({@code key=value}), as {@link SpringBootTest#properties()}; they win over all defaults. */
    @AliasFor(annotation = SpringBootTest.class, attribute = "properties")
    String[] properties() default {};

    /** The configuration classes, as {@link SpringBootTest#classes()}; by default the {@code @SpringBootApplication}. */
    @AliasFor(annotation = SpringBootTest.class, attribute = "classes")
    Class<?>[] classes() default {};

    /** The web environment, as {@link SpringBootTest#webEnvironment()}. */
    @AliasFor(annotation = SpringBootTest.class, attribute = "webEnvironment")
    SpringBootTest.WebEnvironment webEnvironment() default SpringBootTest.WebEnvironment.MOCK;

    /** Partitions of every topic the test creates ({@code streamsplit.kafka.create-topics.partitions}). */
    int partitions() default 2;

    /** The job's parallelism ({@code streamsplit.flink.parallelism}). */
    int parallelism() default 2;

    /** How often the job checkpoints ({@code streamsplit.flink.checkpointing.interval}); exactly-once output
     * becomes visible to read_committed readers on each checkpoint. */
    String checkpointInterval() default "500ms";

    /** Topics to create besides those named in {@code streamsplit.kafka.*} (for a pattern source, say). */
    String[] topics() default {};

    /** Where Kafka comes from. */
    Kafka kafka() default Kafka.EMBEDDED;

    /** Whether the context waits, before the first test, until every task of the job runs. */
    boolean awaitJob() default true;

    /** Where a {@link StreamSplitTest}'s Kafka comes from. */
    enum Kafka {
        /** An in-JVM KRaft broker started for the context (Kafka's own server, not a mock). */
        EMBEDDED,
        /**
         * The application's {@code KafkaConnectionDetails}: a Testcontainers Kafka declared with
         * {@code @ServiceConnection}, for instance. Nothing is started, topics are still created.
         */
        CONNECTION_DETAILS
    }
}
