package io.streamsplit.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.streamsplit.boot.test.DeadLetter;
import io.streamsplit.boot.test.PipelineTester;
import io.streamsplit.boot.test.ReceivedRecord;
import io.streamsplit.boot.test.StreamSplitTest;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

@StreamSplitTest(properties = {"sample.demo-data.enabled=false", "sample.log-totals.enabled=false"})
class CustomerTotalsPipelineIT {

    static final Instant WINDOW = Instant.parse("2023-11-14T22:13:20Z"); // a 5-second window starts here

    @Autowired
    PipelineTester pipeline;

    @Test
    void totalsPerCustomerAndWindowAreExactAndBadRecordsDoNotCount() {
        // one record may hold several orders, one per line: orderId;customer;amountCents;epochMillis
        pipeline.send("orders", null, order("o1", "alice", 100, 1) + "\n" + order("o2", "alice", 250, 2), WINDOW);
        pipeline.send("orders", null, order("o3", "bob", 70, 3), WINDOW);
        pipeline.send("orders", null, "not an order", WINDOW);
        pipeline.send(
                "refunds",
                "alice",
                "{\"refundId\":\"r1\",\"customer\":\"alice\",\"amountCents\":30}",
                WINDOW.plusSeconds(4));

        // event time passes the window's end on every partition: the window closes now, not after an idle timeout
        Instant later = WINDOW.plusSeconds(20);
        pipeline.advanceTime("orders", later, order("o9", "carol", 1, 20));
        pipeline.advanceTime("refunds", later, "{\"refundId\":\"r9\",\"customer\":\"carol\",\"amountCents\":0}");

        String window = "\"windowStart\":\"2023-11-14T22:13:20Z\",\"windowEnd\":\"2023-11-14T22:13:25Z\"";
        assertThat(pipeline.awaitRecords("customer-totals", 2))
                .extracting(ReceivedRecord::key, ReceivedRecord::value)
                .containsExactlyInAnyOrder(
                        tuple("alice", "{\"customer\":\"alice\"," + window + ",\"orders\":3,\"totalCents\":320}"),
                        tuple("bob", "{\"customer\":\"bob\"," + window + ",\"orders\":1,\"totalCents\":70}"));

        DeadLetter dead = pipeline.awaitDeadLetters("orders", 1).get(0);
        assertThat(dead.value()).isEqualTo("not an order");
        assertThat(dead.originalTopic()).isEqualTo("orders");
        assertThat(dead.exceptionMessage()).contains("expected orderId;customer;amountCents;epochMillis");
    }

    private static String order(String id, String customer, long cents, int secondsIntoWindow) {
        return id + ";" + customer + ";" + cents + ";"
                + WINDOW.plusSeconds(secondsIntoWindow).toEpochMilli();
    }
}
