package io.streamsplit.sample;

import io.streamsplit.connector.kafka.source.StreamSplitKafkaSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Reads the pipeline's output topic and logs every customer total, so the console shows the job
 * working. Turn it off with {@code sample.log-totals.enabled=false}.
 */
@Component
@ConditionalOnProperty(name = "sample.log-totals.enabled", havingValue = "true", matchIfMissing = true)
public class CustomerTotalsLog implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(CustomerTotalsLog.class);

    private final String bootstrapServers;
    private final List<String> totals = new CopyOnWriteArrayList<>();
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private @Nullable Thread thread;

    public CustomerTotalsLog(@Qualifier("orders") StreamSplitKafkaSource<?> orders) {
        this.bootstrapServers = orders.consumerProperties().getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
    }

    /** The totals read so far, as JSON. */
    public List<String> totals() {
        return List.copyOf(totals);
    }

    @Override
    public synchronized void start() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "order-totals-log");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        thread = new Thread(this::run, "customer-totals-log");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try (KafkaConsumer<byte[], byte[]> c = consumer) {
            c.subscribe(List.of("customer-totals"));
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<byte[], byte[]> record : c.poll(Duration.ofSeconds(1))) {
                    String total = new String(record.value(), StandardCharsets.UTF_8);
                    totals.add(total);
                    LOG.info("customer-totals: {}", total);
                }
            }
        } catch (WakeupException stopping) {
            // stop() woke the consumer
        } catch (RuntimeException e) {
            LOG.warn("Stopped reading customer-totals: {}", e.toString());
        }
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            consumer.wakeup();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}
