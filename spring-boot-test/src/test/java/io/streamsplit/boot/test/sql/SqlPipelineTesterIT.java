package io.streamsplit.boot.test.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.boot.test.DeadLetter;
import io.streamsplit.boot.test.PipelineTester;
import io.streamsplit.boot.test.ReceivedRecord;
import io.streamsplit.boot.test.StreamSplitTest;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.ActiveProfiles;

/**
 * The test kit drives an application whose job is only {@code streamsplit.sql} as it drives one of beans: it
 * sends, reads what the exactly-once sink committed, sees the source's dead letters, and crashes the
 * TaskManager in the middle; every large payment comes out once.
 */
@StreamSplitTest(classes = SqlKitApplication.class, partitions = 2)
@ActiveProfiles("sql")
class SqlPipelineTesterIT {

    @Autowired
    PipelineTester pipeline;

    @Test
    void aSqlOnlyPipelineWritesEachLargePaymentOnceThroughATaskManagerCrash() {
        for (int i = 0; i < 200; i++) {
            pipeline.sendJson("payments", null, new SqlKitApplication.Payment("p" + i, "acc-" + i % 7, i * 100L));
        }
        pipeline.awaitCheckpoint();
        pipeline.injectFailure();
        for (int i = 200; i < 400; i++) {
            pipeline.sendJson("payments", null, new SqlKitApplication.Payment("p" + i, "acc-" + i % 7, i * 100L));
        }
        pipeline.send("payments", null, "not a payment");

        // ids 100..399 have cents >= 10000
        List<ReceivedRecord> large = pipeline.awaitRecords("large-payments", 300);
        Map<String, Long> perId =
                large.stream().collect(Collectors.groupingBy(ReceivedRecord::key, Collectors.counting()));
        assertThat(perId)
                .hasSize(300)
                .allSatisfy(
                        (id, count) -> assertThat(count).as("copies of %s", id).isEqualTo(1));
        Map<String, ReceivedRecord> byId =
                large.stream().collect(Collectors.toMap(ReceivedRecord::key, Function.identity()));
        assertThat(byId.get("p250").value()).isEqualTo("{\"id\":\"p250\",\"account\":\"acc-5\",\"euros\":250}");

        List<DeadLetter> dead = pipeline.awaitDeadLetters("payments", 1);
        assertThat(dead).extracting(DeadLetter::value).containsExactly("not a payment");
    }
}
