package io.streamsplit.benchmarks.kstreams;

/**
 * The payments of one account in the one-minute window starting at {@code windowStart} (epoch ms), how many
 * and their sum: the output of topology {@code windows}.
 */
public record WindowTotal(String account, long windowStart, long count, long total) {

    /** This window's figures with {@code payment} added. */
    WindowTotal add(String account, Payment payment) {
        return new WindowTotal(account, windowStart, count + 1, total + payment.amount());
    }
}
