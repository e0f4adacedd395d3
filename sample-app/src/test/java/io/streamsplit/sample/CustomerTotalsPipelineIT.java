package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.kafka.embedded.EmbeddedKafkaDevBroker;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The sample's pipeline on known input: a batch record of two orders, a single order, a JSON
 * refund, and a malformed record, all in one 5-second event-time window; a later order
 * moves the watermark past the window. The totals must be exact.
 */
@SpringBootTest(properties = "sample.demo-data.enabled=false")
class CustomerTotalsPipelineIT {

    @Autowired
    CustomerTotalsLog totalsLog;

    @Autowired
    EmbeddedKafkaDevBroker devBroker;

    @Test
    void totalsPerCustomerAndWindowAreExactAndBadRecordsDoNotCount() throws Exception {
        OneWindowOfOrders.produce(devBroker.bootstrapServers());
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() ->
                        assertThat(totalsLog.totals()).containsExactlyInAnyOrderElementsOf(OneWindowOfOrders.TOTALS));
    }
}
