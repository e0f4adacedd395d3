package io.streamsplit.connector.kafka.source.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The control record's format: what an operator (or the starter's endpoint) writes is what the enumerator reads. */
class SourceControlTest {

    @Test
    void whatIsEncodedDecodesToTheSameControl() {
        SourceControl paused = SourceControl.RUNNING.withPaused(true);
        SourceControl slow = SourceControl.RUNNING.withMaxRecordsPerSecond(500.0);
        SourceControl unthrottledPaused = paused.withMaxRecordsPerSecond(0.0);

        assertThat(SourceControl.decode(paused.encode())).isEqualTo(paused);
        assertThat(SourceControl.decode(slow.encode())).isEqualTo(slow);
        assertThat(SourceControl.decode(unthrottledPaused.encode())).isEqualTo(unthrottledPaused);
        assertThat(new String(slow.encode(), StandardCharsets.UTF_8))
                .isEqualTo("paused=false\nmax-records-per-second=500.0");
    }

    @Test
    void aRecordWrittenByHandIsReadLeniently() {
        byte[] typed =
                " Paused = TRUE \nmax-records-per-second=250\nwritten-by=ops\n\n".getBytes(StandardCharsets.UTF_8);

        assertThat(SourceControl.decode(typed)).isEqualTo(new SourceControl(true, 250.0));
        assertThat(SourceControl.decode(new byte[0])).isEqualTo(SourceControl.RUNNING);
    }

    @Test
    void aRateThatIsNoNumberOrNegativeIsRefusedWithTheLine() {
        assertThatThrownBy(() -> SourceControl.decode("max-records-per-second=fast".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'max-records-per-second=fast'");
        assertThatThrownBy(() -> SourceControl.RUNNING.withMaxRecordsPerSecond(-1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1.0")
                .hasMessageContaining("0 for unthrottled");
    }

    @Test
    void theRateInForceIsTheOperatorsOrElseTheConfiguredOne() {
        assertThat(SourceControl.RUNNING.effectiveRate(100)).isEqualTo(100);
        assertThat(SourceControl.RUNNING.withMaxRecordsPerSecond(0.0).effectiveRate(100))
                .isZero();
        assertThat(SourceControl.RUNNING.withMaxRecordsPerSecond(20.0).effectiveRate(0))
                .isEqualTo(20);
    }
}
