package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.BenchmarkSupport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The running-totals pipeline's traffic in the soak and recovery runs: one thread writes payments at a
 * fixed rate (ids 0, 1, 2, …, each stamped with the time it is sent), another reads the output with
 * {@code read_committed} and notes which payment each total answers ({@code lastId}), whether one came
 * twice, now − the output's timestamp (the input's), and when the first answer to a payment sent at or
 * after a given time became visible ({@link #watchFrom}).
 */
final class PaymentTraffic implements AutoCloseable {

    private final String bootstrap;
    private final String input;
    private final String output;
    private final int rate;
    private final int accounts;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final BitSet seen = new BitSet();
    private long outputs;
    private long duplicates;
    private List<Long> latencies = new ArrayList<>();
    private volatile long watchFrom = Long.MAX_VALUE;
    private volatile long firstAnswerAfter;
    private volatile boolean sending = true;
    private volatile boolean reading = true;
    private final Thread sender = new Thread(this::send, "soak-sender");
    private final Thread reader = new Thread(this::read, "soak-reader");

    PaymentTraffic(String bootstrap, String input, String output, int rate, int accounts) {
        this.bootstrap = bootstrap;
        this.input = input;
        this.output = output;
        this.rate = rate;
        this.accounts = accounts;
    }

    PaymentTraffic start() {
        reader.start();
        sender.start();
        return this;
    }

    /** Payments sent so far. */
    long sent() {
        return sent.get();
    }

    /** Output records read so far (with duplicates). */
    synchronized long outputs() {
        return outputs;
    }

    /** Distinct payments answered so far. */
    synchronized long answered() {
        return seen.cardinality();
    }

    /** Payments answered more than once. */
    synchronized long duplicates() {
        return duplicates;
    }

    /** The latencies (ms) of the outputs read since the last call. */
    synchronized List<Long> drainLatencies() {
        List<Long> drained = latencies;
        latencies = new ArrayList<>();
        return drained;
    }

    /** From now on, notes when the first answer to a payment sent at or after {@code millis} shows. */
    void watchFrom(long millis) {
        firstAnswerAfter = 0;
        watchFrom = millis;
    }

    /** When (epoch ms) the first answer to a payment sent at or after {@link #watchFrom}'s time showed; 0 before. */
    long firstAnswerAfter() {
        return firstAnswerAfter;
    }

    /** Stops sending; returns how many payments were sent. */
    long stopSending() throws InterruptedException {
        sending = false;
        sender.join();
        rethrow();
        return sent.get();
    }

    /** The first sending or reading failure, if any. */
    void rethrow() {
        if (failure.get() != null) {
            throw new IllegalStateException(
                    "Soak traffic failed: " + failure.get().getMessage(), failure.get());
        }
    }

    @Override
    public void close() throws InterruptedException {
        sending = false;
        reading = false;
        sender.join();
        reader.join();
    }

    private void send() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        // one request in flight, as BenchmarkSupport's writer: with five, a retry on a topic created a moment
        // before (NOT_LEADER_OR_FOLLOWER) was seen resending a batch with its sequence reset, which the broker
        // refuses (OUT_OF_ORDER_SEQUENCE_NUMBER) until the delivery timeout fails the run (a CI run, loaded)
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            long start = System.nanoTime();
            for (long k = 0; sending && failure.get() == null; k++) {
                long wait = start + k * 1_000_000_000L / rate - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                byte[] value = String.format(
                                Locale.ROOT, "{\"id\":%d,\"account\":\"a%d\",\"amount\":%d}", k, k % accounts, k % 100)
                        .getBytes(StandardCharsets.UTF_8);
                producer.send(
                        new ProducerRecord<>(input, null, System.currentTimeMillis(), null, value), (metadata, e) -> {
                            if (e != null) {
                                failure.compareAndSet(null, e);
                            }
                        });
                sent.incrementAndGet();
            }
            producer.flush();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    private void read() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            BenchmarkSupport.assignFromStart(consumer, output);
            while (reading) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.currentTimeMillis();
                    int id = (int) lastId(record.value());
                    synchronized (this) {
                        outputs++;
                        if (seen.get(id)) {
                            duplicates++;
                        }
                        seen.set(id);
                        latencies.add(now - record.timestamp());
                    }
                    if (record.timestamp() >= watchFrom && firstAnswerAfter == 0) {
                        firstAnswerAfter = now;
                    }
                }
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    /**
     * The payment an output answers: the {@code lastId} of a total {@code {"account":"a7","total":12,"lastId":7}},
     * or the {@code id} of a charge {@code {"id":7,"account":"a7","cents":300,"currency":"EUR"}}.
     */
    static long lastId(byte[] output) {
        String json = new String(output, StandardCharsets.UTF_8);
        return RunChecks.numberAfter(json, json.contains("\"lastId\":") ? "\"lastId\":" : "\"id\":");
    }
}
