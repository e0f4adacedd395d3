package io.streamsplit.benchmarks;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** What the harnesses share: flags, input topics, job configuration, medians. */
public final class BenchmarkSupport {

    private BenchmarkSupport() {}

    /**
     * Refuses to measure in a JVM that compiles with the client compiler only. Maven's own JVM does
     * ({@code .mvn/jvm.config}: the build is faster), and {@code exec:java} runs a harness inside it; what
     * such a JVM measures is not what an application gets. Harnesses that measure in their own JVM call this
     * first in {@code main}; their smoke tests call {@code run} and are not affected.
     */
    public static void requireFullJit(Class<?> harness) {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        boolean tiered =
                Boolean.parseBoolean(hotSpot.getVMOption("TieredCompilation").getValue());
        int level = Integer.parseInt(hotSpot.getVMOption("TieredStopAtLevel").getValue());
        if (tiered && level < 4) {
            throw new IllegalStateException(harness.getSimpleName() + " measures in its own JVM, and this one compiles"
                    + " with the client compiler only (-XX:TieredStopAtLevel=" + level + ", which .mvn/jvm.config"
                    + " gives Maven's JVM, where exec:java runs it): its figures would not be an application's. Give"
                    + " it the full JIT: MAVEN_OPTS=-XX:TieredStopAtLevel=4 mvn -B -q exec:java -pl benchmarks ...");
        }
    }

    /** {@code --name value} pairs of whole numbers over {@code defaults}, read as {@link #options} reads them. */
    public static Map<String, Integer> flags(Map<String, Integer> defaults, String... args) {
        Map<String, String> asText = new LinkedHashMap<>();
        defaults.forEach((name, value) -> asText.put(name, String.valueOf(value)));
        Map<String, Integer> values = new LinkedHashMap<>();
        options(asText, args).forEach((name, value) -> values.put(name, Integer.parseInt(value)));
        return values;
    }

    /**
     * {@code --name value} pairs over {@code defaults}, values as given; an unknown flag or one without
     * a value fails and lists the known ones.
     */
    public static Map<String, String> options(Map<String, String> defaults, String... args) {
        Map<String, String> values = new LinkedHashMap<>(defaults);
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i].replaceFirst("^--", "");
            if (!values.containsKey(name) || i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option or missing value: " + args[i] + "; known: --"
                        + String.join(", --", defaults.keySet()));
            }
            values.put(name, args[i + 1]);
        }
        return values;
    }

    /** JVM options given as one string, {@code "-XX:+UseZGC -Xss512k"}, as a list; blank gives none. */
    public static List<String> jvmOptions(String options) {
        return options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
    }

    /** {@code "1,4,16"} as integers. */
    public static List<Integer> ints(String list) {
        return java.util.Arrays.stream(list.split(","))
                .map(String::trim)
                .map(Integer::parseInt)
                .toList();
    }

    /** Flags every harness has: records, record-size, partitions, parallelism, runs. */
    static Map<String, Integer> commonDefaults(int records, int runs) {
        Map<String, Integer> defaults = new LinkedHashMap<>();
        defaults.put("records", records);
        defaults.put("record-size", 100);
        defaults.put("partitions", 4);
        defaults.put("parallelism", 2);
        defaults.put("runs", runs);
        return defaults;
    }

    /** Assigns every partition of {@code topic} to {@code consumer}, each from its first offset; returns them. */
    public static List<TopicPartition> assignFromStart(Consumer<?, ?> consumer, String topic) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return partitions;
    }

    /** Reads {@code topic} from the beginning to its current end with read_committed; returns the record count. */
    public static long readToEnd(String bootstrapServers, String topic) {
        return readToEnd(bootstrapServers, topic, value -> value, false);
    }

    /**
     * Like {@link #readToEnd(String, String)}, decoding every value with {@code decoder}; {@code tuned}
     * raises the fetch sizes (8 MB per partition, 64 MB per fetch, 10,000 records per poll).
     */
    public static long readToEnd(
            String bootstrapServers, String topic, java.util.function.Function<byte[], Object> decoder, boolean tuned) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        if (tuned) {
            props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 << 20));
            props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(64 << 20));
            props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
            props.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, String.valueOf(1 << 20));
        }
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = assignFromStart(consumer, topic);
            // with read_committed the end is the last stable offset and transaction markers take offsets,
            // so count what is read rather than subtracting offsets
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long count = 0;
            Object sink = null;
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (var record : consumer.poll(Duration.ofMillis(100))) {
                    if (count == 0) {
                        ReadClock.firstRecord();
                    }
                    sink = decoder.apply(record.value());
                    count++;
                }
            }
            ReadClock.end();
            if (count < 0 && sink != null) {
                throw new IllegalStateException(); // keeps the decoded values alive for the JIT
            }
            return count;
        }
    }

    /** Writes {@code count} records of {@code size} bytes, spread over the topic's partitions. */
    static void writeRecords(String bootstrapServers, String topic, int count, int size) {
        byte[] value = new byte[size];
        writeRecords(bootstrapServers, topic, count, i -> value);
    }

    /** Writes {@code count} records with the values {@code values} gives, evenly over the topic's partitions. */
    public static void writeRecords(
            String bootstrapServers, String topic, int count, java.util.function.IntFunction<byte[]> values) {
        writeRecords(bootstrapServers, topic, count, values, i -> List.of());
    }

    /** The same, each record with the headers {@code headers} gives for it. */
    public static void writeRecords(
            String bootstrapServers,
            String topic,
            int count,
            java.util.function.IntFunction<byte[]> values,
            java.util.function.IntFunction<List<Header>> headers) {
        // round robin: the sticky partitioner fills one partition per batch, which left 14 of 16
        // partitions empty for small inputs and uneven ones for large; every partition gets its share
        writeRecords(
                bootstrapServers,
                topic,
                count,
                (partitions, i) ->
                        new ProducerRecord<>(topic, i % partitions, null, null, values.apply(i), headers.apply(i)));
    }

    /** Which partition, key, timestamp, value and headers record {@code i} of a topic of {@code partitions} has. */
    @FunctionalInterface
    public interface RecordOf {
        ProducerRecord<byte[], byte[]> record(int partitions, int i);
    }

    /** Writes the {@code count} records {@code records} makes, failing if one of them cannot be written. */
    public static void writeRecords(String bootstrapServers, String topic, int count, RecordOf records) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        // a broker in the same JVM can be slow to answer under this load: wait rather than time out
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "120000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "600000");
        // with several requests in flight the idempotent producer was seen retrying a batch with a reset
        // sequence number for minutes (OUT_OF_ORDER_SEQUENCE_NUMBER, 10 B x 64 partitions); one at a time
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        java.util.concurrent.atomic.AtomicReference<Exception> failure =
                new java.util.concurrent.atomic.AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            int partitions = producer.partitionsFor(topic).size();
            for (int i = 0; i < count && failure.get() == null; i++) {
                producer.send(records.record(partitions, i), (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException(
                    "Writing the input to " + topic + " failed; the run would count" + " wrong: " + failure.get(),
                    failure.get());
        }
    }

    /**
     * A local job configuration. Under {@code exec:java} the classes are not on the system class
     * loader, which Flink's JobManager uses for jobs without classpath entries; an empty directory
     * as classpath entry makes it build a child loader instead.
     */
    static Configuration jobConfiguration(int parallelism) throws IOException {
        Configuration config = new Configuration();
        config.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        if (ClassLoader.getSystemClassLoader() != BenchmarkSupport.class.getClassLoader()) {
            config.set(
                    PipelineOptions.CLASSPATHS,
                    List.of(Files.createTempDirectory("bench-classpath")
                            .toUri()
                            .toURL()
                            .toString()));
        }
        return config;
    }

    public static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
