package io.streamsplit.connector.kafka.source.reader;

import java.util.Properties;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.function.SerializableSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The consumer settings of one reader: the source's, made its own on the TaskManager it runs on. */
@Internal
final class ReaderConsumerConfig {

    private static final Logger LOG = LoggerFactory.getLogger(ReaderConsumerConfig.class);

    private ReaderConsumerConfig() {}

    /** The source's consumer settings with this reader's client id, poll size and rack. */
    static Properties of(KafkaSourceReader.Settings settings, int subtask, int parallelism) {
        Properties consumer = new Properties();
        consumer.putAll(settings.consumerProperties());
        String clientId = consumer.getProperty("client.id", settings.sourceName());
        consumer.setProperty("client.id", clientId + "-" + subtask);
        if (settings.maxRecordsPerSecond() > 0) {
            // Flink's limiter charges a fetch's records at once, after emitting them: fetches of a tenth of
            // a second's share keep a throttled reader near its rate instead of in bursts of a whole fetch
            int share = (int) Math.max(1, settings.maxRecordsPerSecond() / parallelism / 10);
            int configured = Integer.parseInt(consumer.getProperty("max.poll.records", "500"));
            consumer.setProperty("max.poll.records", String.valueOf(Math.min(configured, share)));
        }
        setRack(consumer, settings, subtask);
        return consumer;
    }

    /** Sets {@code client.rack} from the source's rack supplier, run here on the TaskManager. */
    private static void setRack(Properties consumer, KafkaSourceReader.Settings settings, int subtask) {
        SerializableSupplier<String> supplier = settings.rackId();
        if (supplier == null) {
            return;
        }
        String rack = supplier.get();
        if (rack == null || rack.isBlank()) {
            LOG.warn(
                    "Source {}: reader {} has no rack ({} is empty on this TaskManager), so it fetches from partition"
                            + " leaders, not the closest replica. Set it in every TaskManager's environment.",
                    settings.sourceName(),
                    subtask,
                    supplier);
            return;
        }
        consumer.setProperty("client.rack", rack);
        LOG.info("Source {}: reader {} fetches from rack {}", settings.sourceName(), subtask, rack);
    }
}
