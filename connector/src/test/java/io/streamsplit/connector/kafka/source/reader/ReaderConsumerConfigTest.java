package io.streamsplit.connector.kafka.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.connector.kafka.source.BadRecordPolicy;
import java.util.Properties;
import org.apache.flink.util.function.SerializableSupplier;
import org.junit.jupiter.api.Test;

/** Each reader makes the source's consumer settings its own where it runs: client id, poll size, rack. */
class ReaderConsumerConfigTest {

    private static KafkaSourceReader.Settings settings(double rate, SerializableSupplier<String> rack) {
        Properties consumer = new Properties();
        consumer.setProperty("client.id", "streamsplit-orders");
        consumer.setProperty("max.poll.records", "2000");
        return new KafkaSourceReader.Settings("orders", consumer, true, BadRecordPolicy.FAIL, rate, false, rack);
    }

    @Test
    void theRackSupplierRunsForEachReaderAndSetsClientRack() {
        Properties consumer = ReaderConsumerConfig.of(settings(0, () -> "eu-west-1b"), 3, 4);

        assertThat(consumer)
                .containsEntry("client.rack", "eu-west-1b")
                .containsEntry("client.id", "streamsplit-orders-3")
                .containsEntry("max.poll.records", "2000");
    }

    @Test
    void aTaskManagerWithoutARackReadsFromTheLeadersInsteadOfFailing() {
        assertThat(ReaderConsumerConfig.of(settings(0, () -> null), 0, 1)).doesNotContainKey("client.rack");
        assertThat(ReaderConsumerConfig.of(settings(0, () -> " "), 0, 1)).doesNotContainKey("client.rack");
        assertThat(ReaderConsumerConfig.of(settings(0, null), 0, 1)).doesNotContainKey("client.rack");
    }

    @Test
    void aThrottledReaderPollsATenthOfASecondsShare() {
        // 4,000 records/s over 4 readers: 1,000 each, polled 100 at a time
        assertThat(ReaderConsumerConfig.of(settings(4_000, null), 0, 4)).containsEntry("max.poll.records", "100");
    }
}
