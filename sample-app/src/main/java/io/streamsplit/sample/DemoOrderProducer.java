package io.streamsplit.sample;

import io.streamsplit.boot.autoconfigure.kafka.embedded.EmbeddedKafkaDevBroker;
import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Writes demo data so the sample shows something with zero setup: every 250 ms a batch of orders,
 * now and then a refund, and one in 25 records a malformed one (it ends up in orders.DLT). Only into
 * the dev-mode broker the application started itself: pointed at a real Kafka, the sample writes
 * nothing there. Turn it off with {@code sample.demo-data.enabled=false}.
 */
@Component
@ConditionalOnProperty(name = "sample.demo-data.enabled", havingValue = "true", matchIfMissing = true)
public class DemoOrderProducer implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(DemoOrderProducer.class);
    private static final String[] CUSTOMERS = {"alice", "bob", "carol", "dave"};

    private final String bootstrapServers;
    private final Random random = new Random(42);
    private final AtomicLong orders = new AtomicLong();
    private final AtomicLong refunds = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private @Nullable ScheduledExecutorService scheduler;
    private KafkaProducer<byte[], byte[]> producer;
    private long batches;

    private final boolean devBroker;

    public DemoOrderProducer(
            @Qualifier("orders") StreamSplitKafkaSource<?> orders, ObjectProvider<EmbeddedKafkaDevBroker> devBroker) {
        this.bootstrapServers = orders.consumerProperties().getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        EmbeddedKafkaDevBroker broker = devBroker.getIfAvailable();
        this.devBroker = broker != null && broker.isStarted() && bootstrapServers.equals(broker.bootstrapServers());
    }

    @Override
    public synchronized void start() {
        if (!devBroker) {
            LOG.info(
                    "No demo data: Kafka at {} is not the dev-mode broker this application started, and the sample"
                            + " writes demo orders only into that one",
                    bootstrapServers);
            return;
        }
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "demo-order-producer"));
        scheduler.scheduleWithFixedDelay(this::writeBatch, 0, 250, TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(
                () -> LOG.info(
                        "Demo data so far: {} orders, {} refunds, {} malformed records" + " written to {}",
                        orders.get(),
                        refunds.get(),
                        malformed.get(),
                        bootstrapServers),
                10,
                10,
                TimeUnit.SECONDS);
        LOG.info("Writing demo orders to topic 'orders' and refunds to 'refunds' at {}", bootstrapServers);
    }

    private void writeBatch() {
        try {
            long now = System.currentTimeMillis();
            batches++;
            if (batches % 25 == 0) {
                producer.send(new ProducerRecord<>("orders", "this is not an order".getBytes(StandardCharsets.UTF_8)));
                malformed.incrementAndGet();
                return;
            }
            List<String> lines = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                Order order = new Order(
                        "o-" + orders.incrementAndGet(),
                        CUSTOMERS[random.nextInt(CUSTOMERS.length)],
                        100 + random.nextInt(9_900),
                        now);
                lines.add(order.format());
            }
            producer.send(
                    new ProducerRecord<>("orders", String.join("\n", lines).getBytes(StandardCharsets.UTF_8)));
            if (batches % 10 == 0) {
                String customer = CUSTOMERS[random.nextInt(CUSTOMERS.length)];
                producer.send(new ProducerRecord<>(
                        "refunds",
                        null,
                        now,
                        customer.getBytes(StandardCharsets.UTF_8),
                        ("{\"refundId\":\"r-" + refunds.incrementAndGet() + "\",\"customer\":\"" + customer
                                        + "\",\"amountCents\":" + (50 + random.nextInt(500)) + "}")
                                .getBytes(StandardCharsets.UTF_8)));
            }
        } catch (RuntimeException e) {
            LOG.warn("Could not write demo data: {}", e.toString());
        }
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            producer.close(java.time.Duration.ofSeconds(5));
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }

    /** Whether it writes demo data: only into the dev-mode broker the application started. */
    public boolean writes() {
        return devBroker;
    }

    /** Starts after the Flink job was submitted, stops before it. */
    @Override
    public int getPhase() {
        return io.streamsplit.boot.job.StreamSplitJob.PHASE + 1;
    }
}
