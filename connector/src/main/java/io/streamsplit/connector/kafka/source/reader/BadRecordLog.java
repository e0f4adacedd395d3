package io.streamsplit.connector.kafka.source.reader;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.flink.annotation.Internal;
import org.jspecify.annotations.Nullable;

/**
 * What a reader says of the bad records it skips or dead-letters: the first one in a WARN line naming the
 * source, topic, partition, offset and why, then at most one such line a minute, which also says how many
 * bad records came since the last one. A source whose policy is to skip or dead-letter expects bad records:
 * one WARN per record would fill the log of an application doing what it was told (and cost a busy reader
 * a log line per record). Every bad record is counted in the source's metrics whatever the log says, and
 * each is logged at DEBUG.
 */
@Internal
public final class BadRecordLog {

    static final Duration INTERVAL = Duration.ofMinutes(1);

    private final LongSupplier nanoClock;
    private final String noun;
    private final String countedIn;
    private boolean warned;
    private long warnedAt;
    private long since;

    BadRecordLog() {
        this("bad record", "the source's metrics", System::nanoTime);
    }

    BadRecordLog(LongSupplier nanoClock) {
        this("bad record", "the source's metrics", nanoClock);
    }

    /**
     * A log for records of another kind ({@code "record step 'enrich' failed on"}), counted in {@code countedIn}
     * ({@code "the step's metrics"}): the same one line a minute.
     */
    public BadRecordLog(String noun, String countedIn) {
        this(noun, countedIn, System::nanoTime);
    }

    BadRecordLog(String noun, String countedIn, LongSupplier nanoClock) {
        this.noun = noun;
        this.countedIn = countedIn;
        this.nanoClock = nanoClock;
    }

    /**
     * The WARN line for a bad record, or {@code null} when one was said less than {@link #INTERVAL} ago
     * (the record then counts toward the next line).
     *
     * @param done what was done with it: "Skipped", "Dead-lettered"
     * @param where "source s, topic t, partition p, offset o"
     */
    @Nullable
    public String warning(String done, String where, Throwable error) {
        long now = nanoClock.getAsLong();
        if (warned && now - warnedAt < INTERVAL.toNanos()) {
            since++;
            return null;
        }
        String line =
                done + " a " + noun + " (" + where + "): " + error.getClass().getName() + ": " + error.getMessage()
                        + (since == 0
                                ? ""
                                : " (and " + since + " more " + noun + (since == 1 ? "" : "s") + " in the last "
                                        + Duration.ofNanos(now - warnedAt).toSeconds()
                                        + " s, counted in " + countedIn
                                        + "; one line a minute at most, each at DEBUG)");
        warned = true;
        warnedAt = now;
        since = 0;
        return line;
    }
}
