package io.streamsplit.connector.kafka.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BadRecordLogTest {

    private final AtomicLong now = new AtomicLong(TimeUnit.HOURS.toNanos(5));
    private final BadRecordLog log = new BadRecordLog(now::get);

    @Test
    void theFirstBadRecordIsOneWarningNamingWhereAndWhy() {
        assertThat(log.warning("Dead-lettered", "source orders, topic orders, partition 3, offset 99", bad("x")))
                .isEqualTo("Dead-lettered a bad record (source orders, topic orders, partition 3, offset 99):"
                        + " java.io.IOException: not JSON: x");
    }

    @Test
    void aStreamOfBadRecordsIsOneLineAMinuteSayingHowManyCameMeanwhile() {
        assertThat(log.warning("Skipped", "offset 1", bad("1"))).isNotNull();
        for (int i = 2; i <= 1000; i++) { // 20 a second: 49.95 s in all, within the first minute
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(50));
            assertThat(log.warning("Skipped", "offset " + i, bad(String.valueOf(i))))
                    .as("record %d", i)
                    .isNull();
        }
        now.addAndGet(TimeUnit.SECONDS.toNanos(11));
        assertThat(log.warning("Skipped", "offset 1001", bad("1001")))
                .isEqualTo("Skipped a bad record (offset 1001): java.io.IOException: not JSON: 1001"
                        + " (and 999 more bad records in the last 60 s, counted in the source's metrics;"
                        + " one line a minute at most, each at DEBUG)");
        // and the count starts again
        now.addAndGet(TimeUnit.SECONDS.toNanos(61));
        assertThat(log.warning("Skipped", "offset 1002", bad("1002")))
                .isEqualTo("Skipped a bad record (offset 1002): java.io.IOException: not JSON: 1002");
    }

    private static IOException bad(String value) {
        return new IOException("not JSON: " + value);
    }
}
