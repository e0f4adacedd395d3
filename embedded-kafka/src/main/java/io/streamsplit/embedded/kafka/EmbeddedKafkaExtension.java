package io.streamsplit.embedded.kafka;

import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that runs one {@link EmbeddedKafkaBroker} for a test class: started before
 * the first test, stopped and deleted after the last.
 *
 * <pre>{@code
 * class OrdersIT {
 *     @RegisterExtension
 *     static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();
 *
 *     @Test
 *     void readsOrders() {
 *         KAFKA.broker().createTopic("orders", 3);
 *         ... KAFKA.bootstrapServers() ...
 *     }
 * }
 * }</pre>
 */
public final class EmbeddedKafkaExtension implements BeforeAllCallback, AfterAllCallback {

    private final Consumer<EmbeddedKafkaBroker.Builder> customizer;
    private @Nullable EmbeddedKafkaBroker broker;

    /** A broker with the default settings on a free port. */
    public EmbeddedKafkaExtension() {
        this(builder -> {});
    }

    /** A broker whose settings the customizer adjusts, e.g. {@code b -> b.brokerProperty(k, v)}. */
    public EmbeddedKafkaExtension(Consumer<EmbeddedKafkaBroker.Builder> customizer) {
        this.customizer = customizer;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        EmbeddedKafkaBroker.Builder builder = EmbeddedKafkaBroker.builder();
        customizer.accept(builder);
        broker = builder.build().start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    /** The running broker. */
    public EmbeddedKafkaBroker broker() {
        if (broker == null) {
            throw new IllegalStateException("The embedded broker runs only while the test class runs; "
                    + "register the extension on a static field with @RegisterExtension");
        }
        return broker;
    }

    /** Shortcut for {@code broker().bootstrapServers()}. */
    public String bootstrapServers() {
        return broker().bootstrapServers();
    }
}
