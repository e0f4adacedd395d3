package io.streamsplit.connector.kafka.source;

import io.streamsplit.embedded.kafka.EmbeddedKafkaBroker;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.testframe.external.ExternalSystemSplitDataWriter;
import org.apache.flink.connector.testframe.external.source.DataStreamSourceExternalContext;
import org.apache.flink.connector.testframe.external.source.TestingSourceSettings;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Flink connector test framework context for our source on the embedded broker. A "split" of
 * the framework is either a partition of one topic, or a whole single-partition topic; both are
 * created after the source is built, so the source subscribes by pattern and discovers them.
 */
final class StreamSplitSourceExternalContext implements DataStreamSourceExternalContext<String> {

    enum SplitMode {
        PARTITION,
        TOPIC
    }

    private final EmbeddedKafkaBroker broker;
    private final SplitMode mode;
    private final String prefix = "suite-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<SplitWriter> writers = new ArrayList<>();

    StreamSplitSourceExternalContext(EmbeddedKafkaBroker broker, SplitMode mode) {
        this.broker = broker;
        this.mode = mode;
    }

    @Override
    public Source<String, ?, ?> createSource(TestingSourceSettings settings) {
        StreamSplitKafkaSourceBuilder<String> builder = StreamSplitKafkaSource.<String>builder()
                .setName(prefix)
                .setBootstrapServers(broker.bootstrapServers())
                .setTopicPattern(Pattern.compile(Pattern.quote(prefix) + "-.*"))
                .setGroupId(prefix)
                .setValueOnlyDeserializer(new SimpleStringSchema());
        if (settings.getBoundedness() == Boundedness.BOUNDED) {
            builder.setBounded(StoppingOffsets.latest());
        } else {
            builder.setPartitionDiscoveryInterval(Duration.ofSeconds(1));
        }
        return builder.build();
    }

    @Override
    public synchronized ExternalSystemSplitDataWriter<String> createSourceSplitDataWriter(
            TestingSourceSettings settings) {
        int index = writers.size();
        SplitWriter writer;
        if (mode == SplitMode.TOPIC) {
            String topic = prefix + "-" + index;
            broker.createTopic(topic, 1);
            writer = new SplitWriter(topic, 0);
        } else {
            String topic = prefix + "-topic";
            if (index == 0) {
                broker.createTopic(topic, 1);
            } else {
                broker.addPartitions(topic, index + 1);
            }
            writer = new SplitWriter(topic, index);
        }
        writers.add(writer);
        return writer;
    }

    @Override
    public List<String> generateTestData(TestingSourceSettings settings, int splitIndex, long seed) {
        Random random = new Random(seed);
        int count = 100 + random.nextInt(200);
        List<String> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            records.add("split" + splitIndex + "-" + i + "-" + Long.toHexString(random.nextLong()));
        }
        return records;
    }

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public List<URL> getConnectorJarPaths() {
        return List.of();
    }

    @Override
    public void close() {
        writers.forEach(SplitWriter::close);
    }

    @Override
    public String toString() {
        return "StreamSplit source, one split per " + mode.name().toLowerCase();
    }

    private final class SplitWriter implements ExternalSystemSplitDataWriter<String> {
        private final String topic;
        private final int partition;
        private KafkaProducer<byte[], byte[]> producer;

        SplitWriter(String topic, int partition) {
            this.topic = topic;
            this.partition = partition;
        }

        @Override
        public synchronized void writeRecords(List<String> records) {
            if (producer == null) {
                producer = KafkaTestRecords.producer(broker.bootstrapServers());
            }
            for (String record : records) {
                producer.send(new ProducerRecord<>(topic, partition, null, record.getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }

        @Override
        public synchronized void close() {
            if (producer != null) {
                producer.close();
                producer = null;
            }
        }
    }
}
