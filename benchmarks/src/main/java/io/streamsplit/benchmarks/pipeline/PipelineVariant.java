package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.isolated.AppStartBenchmark;
import io.streamsplit.benchmarks.isolated.JvmLauncher;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.jspecify.annotations.Nullable;

/**
 * A pipeline {@link PipelineBenchmark} measures: which job, on which input, how it is started. Every
 * variant runs from the benchmarks app's extracted jar ({@code java -cp app.jar <main>}), so they share
 * one class path and one start-up path:
 *
 * <ul>
 *   <li>{@code plain}, {@code headers}, {@code traced}, {@code traced-10pct}: the starter's source → map →
 *       sink ({@code UppercaseApplication}) on input without headers, with a sampled {@code traceparent}
 *       and {@code tracestate} per record, the same with Micrometer Tracing over the OpenTelemetry SDK on
 *       the class path, and with one record in ten sampled upstream;
 *   <li>{@code starter}, {@code hand-wired}: JSON payments → running total per account → exactly-once
 *       sink, from YAML (profile {@code totals}) and as a plain Flink job with the official connector
 *       ({@code HandWiredTotalsJob});
 *   <li>{@code transform}, {@code kstreams-transform}: JSON orders (one in a hundred malformed, dead-lettered)
 *       → a charge each → JSON, at-least-once, as a StreamSplit app (profile {@code transform}) and as a
 *       Spring Kafka Streams app ({@code benchmarks-kstreams-app}, its own jar);
 *   <li>{@code totals}, {@code kstreams-totals}: the same orders → running total per account → JSON,
 *       exactly-once (our exactly-once sink against Kafka Streams' {@code exactly_once_v2}, a RocksDB store,
 *       record cache off);
 *   <li>{@code windows}, {@code kstreams-windows}: orders keyed and partitioned by account, each stamped with its
 *       event time → one-minute tumbling windows on event time → a count and total per account and window,
 *       exactly-once (monotonous watermarks against Kafka Streams' stream time, a windowed store and
 *       {@code suppress(untilWindowCloses)}). The input ends with a record per partition later than every
 *       window, so both close them all; the output is one record per account and window.
 *   <li>{@code kstreams44-transform}, {@code kstreams44-totals}, {@code kstreams44-windows}: the same Kafka Streams
 *       jobs on Spring Boot 4.2's line (Kafka Streams 4.4, spring-kafka 4.2: {@code benchmarks-kstreams44-app}, the
 *       same source built against it), what a new project gets.
 * </ul>
 */
enum PipelineVariant {
    PLAIN("plain", Input.PLAIN, Job.UPPERCASE, false),
    HEADERS("headers", Input.SAMPLED, Job.UPPERCASE, false),
    TRACED("traced", Input.SAMPLED, Job.UPPERCASE, true),
    TRACED_TENTH("traced-10pct", Input.TENTH_SAMPLED, Job.UPPERCASE, true),
    STARTER("starter", Input.PAYMENTS, Job.TOTALS, false),
    HAND_WIRED("hand-wired", Input.PAYMENTS, Job.HAND_WIRED_TOTALS, false),
    TRANSFORM("transform", Input.ORDERS, Job.TRANSFORM, false),
    KSTREAMS_TRANSFORM("kstreams-transform", Input.ORDERS, Job.KSTREAMS_TRANSFORM, false),
    TOTALS("totals", Input.ORDERS, Job.TOTALS, false),
    KSTREAMS_TOTALS("kstreams-totals", Input.ORDERS, Job.KSTREAMS_TOTALS, false),
    WINDOWS("windows", Input.WINDOWED_ORDERS, Job.WINDOWS, false),
    KSTREAMS_WINDOWS("kstreams-windows", Input.WINDOWED_ORDERS, Job.KSTREAMS_WINDOWS, false),
    KSTREAMS44_TRANSFORM("kstreams44-transform", Input.ORDERS, Job.KSTREAMS_TRANSFORM, false),
    KSTREAMS44_TOTALS("kstreams44-totals", Input.ORDERS, Job.KSTREAMS_TOTALS, false),
    KSTREAMS44_WINDOWS("kstreams44-windows", Input.WINDOWED_ORDERS, Job.KSTREAMS_WINDOWS, false);

    /** The app's log line when records are traced (StreamSplitTracingAutoConfiguration). */
    static final String TRACING_LINE = "Tracing records with Micrometer Tracing";

    /** The jars Micrometer Tracing over OpenTelemetry adds to an application (the benchmarks module has them). */
    private static final Pattern TRACING_JARS = Pattern.compile(
            "(micrometer-tracing|spring-boot-micrometer-tracing|spring-boot-opentelemetry|opentelemetry-|context-propagation)"
                    + "[^" + Pattern.quote(File.separator) + "]*\\.jar$");

    /** The input topic's records. */
    enum Input {
        PLAIN,
        SAMPLED,
        TENTH_SAMPLED,
        PAYMENTS,
        /** Payments of which one in a hundred is not JSON a payment can be read from. */
        ORDERS,
        /**
         * {@link #ORDERS} keyed by account, each account's in one partition, stamped with event times {@link
         * #eventTimeStep} apart from a minute an hour ago, and after them one record per partition two minutes
         * later than the last (account {@value #LATE_ACCOUNT}): what moves every partition's event time past
         * the last window.
         */
        WINDOWED_ORDERS;

        /** The account of the records that close the last windows. */
        static final String LATE_ACCOUNT = "~end";

        /** The first record's event time: a whole minute an hour ago (inside the broker's retention). */
        private static final long EVENT_TIME_BASE = (System.currentTimeMillis() / 60_000 - 60) * 60_000;

        String topic() {
            return "pipe.in-" + name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** Whether record {@code i} is malformed: every hundredth of {@link #ORDERS} and {@link #WINDOWED_ORDERS}. */
        boolean bad(int i) {
            return malformedOnes() && i % 100 == 99;
        }

        /** How many of the first {@code records} records are malformed. */
        long badOf(long records) {
            return malformedOnes() ? (records + 1) / 100 : 0;
        }

        boolean malformedOnes() {
            return this == ORDERS || this == WINDOWED_ORDERS;
        }

        /** The records the harness writes for {@code records} input records: the late ones on top, one a partition. */
        int written(int records, int partitions) {
            return this == WINDOWED_ORDERS ? records + partitions : records;
        }

        /**
         * Record {@code i} of {@link #written}: round robin over the partitions without key or timestamp, but for
         * {@link #WINDOWED_ORDERS} keyed by account in the account's partition at its event time.
         */
        ProducerRecord<byte[], byte[]> record(
                String topic, int i, int records, int partitions, int valueSize, int accounts) {
            if (this != WINDOWED_ORDERS) {
                return new ProducerRecord<>(
                        topic, i % partitions, null, null, value(i, valueSize, accounts), headers(i));
            }
            long step = eventTimeStep(records);
            if (i >= records) {
                byte[] late = String.format(Locale.ROOT, "{\"id\":-1,\"account\":\"%s\",\"amount\":0}", LATE_ACCOUNT)
                        .getBytes(StandardCharsets.UTF_8);
                return new ProducerRecord<>(
                        topic,
                        i - records,
                        EVENT_TIME_BASE + records * step + 120_000,
                        LATE_ACCOUNT.getBytes(StandardCharsets.UTF_8),
                        late);
            }
            int account = i % accounts;
            return new ProducerRecord<>(
                    topic,
                    account % partitions,
                    EVENT_TIME_BASE + i * step,
                    ("a" + account).getBytes(StandardCharsets.UTF_8),
                    value(i, valueSize, accounts));
        }

        /** Milliseconds of event time between two records: the input spans about twenty one-minute windows. */
        static long eventTimeStep(long records) {
            return Math.max(1, 20 * 60_000 / Math.max(records, 1));
        }

        byte[] value(int i, int valueSize, int accounts) {
            if (bad(i)) {
                return String.format(Locale.ROOT, "{\"id\":%d,\"account\":", i).getBytes(StandardCharsets.UTF_8);
            }
            if (this == PAYMENTS || malformedOnes()) {
                return String.format(
                                Locale.ROOT, "{\"id\":%d,\"account\":\"a%d\",\"amount\":%d}", i, i % accounts, i % 100)
                        .getBytes(StandardCharsets.UTF_8);
            }
            byte[] value = new byte[valueSize];
            Arrays.fill(value, (byte) 'x');
            return value;
        }

        List<Header> headers(int i) {
            if (this == PLAIN || this == PAYMENTS || malformedOnes()) {
                return List.of();
            }
            String flags = this == SAMPLED || i % 10 == 0 ? "01" : "00";
            String traceparent = String.format(Locale.ROOT, "00-%032x-%016x-%s", i + 1, i + 1, flags);
            return List.of(
                    new RecordHeader("traceparent", traceparent.getBytes(StandardCharsets.US_ASCII)),
                    new RecordHeader("tracestate", "bench=1".getBytes(StandardCharsets.US_ASCII)));
        }
    }

    /** The job and how it is launched. */
    enum Job {
        UPPERCASE,
        TOTALS,
        HAND_WIRED_TOTALS,
        TRANSFORM,
        KSTREAMS_TRANSFORM,
        KSTREAMS_TOTALS,
        WINDOWS,
        KSTREAMS_WINDOWS;

        /** Whether the job runs from the Kafka Streams app's jar. */
        boolean kafkaStreams() {
            return this == KSTREAMS_TRANSFORM || this == KSTREAMS_TOTALS || this == KSTREAMS_WINDOWS;
        }

        /** The profile of the StreamSplit app, or the topology of the Kafka Streams app, that runs it. */
        String profile() {
            return name().replace("KSTREAMS_", "").toLowerCase(Locale.ROOT);
        }
    }

    final String label;
    final Input input;
    final Job job;
    final boolean tracing;

    PipelineVariant(String label, Input input, Job job, boolean tracing) {
        this.label = label;
        this.input = input;
        this.job = job;
        this.tracing = tracing;
    }

    static PipelineVariant of(String label) {
        return Arrays.stream(values())
                .filter(v -> v.label.equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown variant " + label + "; known: "
                        + String.join(
                                ", ", Arrays.stream(values()).map(v -> v.label).toList())));
    }

    /** Whether the job runs from the Kafka Streams 4.4 app's jar (Spring Boot 4.2's line) rather than 4.1's. */
    boolean kafkaStreams44() {
        return label.startsWith("kstreams44-");
    }

    /** Whether every output record is written once and only once (exactly-once sink), so the count must match. */
    boolean exactlyOnce() {
        return job == Job.TOTALS || job == Job.HAND_WIRED_TOTALS || job == Job.KSTREAMS_TOTALS || windowed();
    }

    /** Whether the job writes one record per account and window rather than one per input record. */
    boolean windowed() {
        return input == Input.WINDOWED_ORDERS;
    }

    /**
     * The output records {@code records} input records over {@code accounts} accounts make: one per record that
     * is not malformed, or for a windowed job one per account and one-minute window with a good record.
     */
    long expectedOutput(int records, int accounts) {
        if (!windowed()) {
            return records - input.badOf(records);
        }
        long step = Input.eventTimeStep(records);
        Set<Long> accountWindows = new HashSet<>();
        for (int i = 0; i < records; i++) {
            if (!input.bad(i)) {
                accountWindows.add(i * step / 60_000 * accounts + i % accounts);
            }
        }
        return accountWindows.size();
    }

    /** The topics a run writes to and the harness creates first: {@code output} and the dead letters' topic. */
    List<String> outputTopics(String output) {
        String deadLetters = deadLetterTopic(output);
        return deadLetters == null ? List.of(output) : List.of(output, deadLetters);
    }

    /** The topic this variant's bad records go to in run {@code run}, null where the input has none. */
    @Nullable
    String deadLetterTopic(String output) {
        return input.malformedOnes() ? output + ".DLT" : null;
    }

    /**
     * The JVM command: {@code java <jvm> -cp <extracted app jar>[:<tracing jars>] <main> <args>}, with
     * {@code appArgs} (blank for none) after a StreamSplit app's own.
     */
    List<String> command(
            PipelineBenchmark.Settings settings,
            String appArgs,
            Jars jars,
            String bootstrap,
            String inputTopic,
            String group,
            String output) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(settings.jvmOptions());
        if (job.kafkaStreams()) {
            return kafkaStreamsCommand(
                    command,
                    settings,
                    appArgs,
                    jars.kafkaStreams(kafkaStreams44()),
                    bootstrap,
                    inputTopic,
                    group,
                    output);
        }
        Path jar = jars.streamSplit();
        Path logback = jars.handWiredLogback();
        List<String> classPath = new ArrayList<>(List.of(jar.toString()));
        if (tracing) {
            classPath.addAll(tracingJars());
        }
        if (job == Job.HAND_WIRED_TOTALS) {
            command.add("-Dlogback.configurationFile=" + logback);
        }
        command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath)));
        if (job == Job.HAND_WIRED_TOTALS) {
            command.addAll(List.of(
                    "io.streamsplit.benchmarks.app.HandWiredTotalsJob",
                    "--bootstrap-servers",
                    bootstrap,
                    "--input",
                    inputTopic,
                    "--output",
                    output,
                    "--group-id",
                    group,
                    "--checkpoint-interval-ms",
                    String.valueOf(settings.checkpointInterval().toMillis()),
                    "--parallelism",
                    String.valueOf(settings.parallelism())));
            return command;
        }
        command.addAll(List.of(
                "io.streamsplit.benchmarks.app.UppercaseApplication",
                "--streamsplit.kafka.bootstrap-servers=" + bootstrap,
                "--streamsplit.kafka.sources.in.topics=" + inputTopic,
                "--streamsplit.kafka.sources.in.group-id=" + group,
                "--streamsplit.kafka.sinks.out.topic=" + output,
                // every run is a first start: checkpoints of its own, not the last run's to resume from
                "--streamsplit.flink.checkpointing.storage="
                        + jar.toAbsolutePath()
                                .getParent()
                                .resolve("checkpoints-" + group)
                                .toUri(),
                "--streamsplit.flink.parallelism=" + settings.parallelism(),
                "--streamsplit.flink.checkpointing.interval="
                        + settings.checkpointInterval().toMillis() + "ms",
                // the harness reads every checkpoint's duration from this line
                "--logging.level.org.apache.flink.runtime.checkpoint.CheckpointCoordinator=info",
                "--server.port=0"));
        if (job == Job.TOTALS || job == Job.TRANSFORM || job == Job.WINDOWS) {
            command.add("--spring.profiles.active=" + job.profile());
        }
        String deadLetters = deadLetterTopic(output);
        if (deadLetters != null) {
            command.add("--streamsplit.kafka.sources.in.bad-record-policy=dead-letter");
            command.add("--streamsplit.kafka.sources.in.dead-letter-topic=" + deadLetters);
        }
        addAppArgs(command, appArgs);
        return command;
    }

    /**
     * The Kafka Streams app: the same topics, its application id the run's group, a thread per unit of
     * parallelism, the guarantee of the StreamSplit variant it stands beside, and {@code commit.interval.ms}
     * the checkpoint interval unless {@code --kstreams-commit default} keeps Kafka Streams' own (100 ms
     * exactly-once, 30 s at-least-once).
     */
    private List<String> kafkaStreamsCommand(
            List<String> command,
            PipelineBenchmark.Settings settings,
            String appArgs,
            Path jar,
            String bootstrap,
            String inputTopic,
            String group,
            String output) {
        String streams = "--spring.kafka.streams.";
        command.addAll(List.of(
                "-cp",
                jar.toString(),
                "io.streamsplit.benchmarks.kstreams.KafkaStreamsApplication",
                "--spring.kafka.bootstrap-servers=" + bootstrap,
                "--bench.topology=" + job.profile(),
                "--bench.input=" + inputTopic,
                "--bench.output=" + output,
                "--bench.dead-letter-topic=" + deadLetterTopic(output),
                streams + "application-id=" + group,
                // every run is a first start, as the StreamSplit variants' own checkpoint storage
                streams + "state-dir=" + jar.toAbsolutePath().getParent().resolve("state-" + group),
                streams + "properties.num.stream.threads=" + settings.parallelism(),
                streams + "properties.processing.guarantee=" + (exactlyOnce() ? "exactly_once_v2" : "at_least_once"),
                "--server.port=0"));
        if (settings.kafkaStreamsSameCadence()) {
            command.add(streams + "properties.commit.interval.ms="
                    + settings.checkpointInterval().toMillis());
        }
        addAppArgs(command, appArgs);
        return command;
    }

    private static void addAppArgs(List<String> command, String appArgs) {
        if (!appArgs.isBlank()) {
            command.addAll(List.of(appArgs.trim().split("\\s+")));
        }
    }

    /**
     * The extracted jars the variants run from: the StreamSplit benchmarks app, the Kafka Streams app (null
     * when no variant of the run needs it), and the hand-wired job's logback configuration.
     */
    record Jars(
            Path streamSplit,
            @Nullable Path kafkaStreamsOrNull,
            @Nullable Path kafkaStreams44OrNull,
            Path handWiredLogback) {

        /** These jars with another (extracted) build of the StreamSplit benchmarks app. */
        Jars withStreamSplit(Path other) {
            return new Jars(other, kafkaStreamsOrNull, kafkaStreams44OrNull, handWiredLogback);
        }

        /** The Kafka Streams app's executable jar, from the repository's root or a module directory. */
        static Path kafkaStreamsAppJar() {
            return moduleJar("benchmarks-kstreams-app");
        }

        /** The same app built on Spring Boot 4.2's line (Kafka Streams 4.4). */
        static Path kafkaStreams44AppJar() {
            return moduleJar("benchmarks-kstreams44-app");
        }

        private static Path moduleJar(String module) {
            Path fromRoot = Path.of(module, "target", "streamsplit-" + module + "-exec.jar");
            Path fromModule = Path.of("..").resolve(fromRoot);
            return Files.isRegularFile(fromRoot) || !Files.isRegularFile(fromModule) ? fromRoot : fromModule;
        }

        /** Extracts the jars {@code variants} run from into {@code work}, failing with the build command if one is missing. */
        static Jars prepare(PipelineBenchmark.Settings settings, List<PipelineVariant> variants, Path work)
                throws IOException, InterruptedException {
            Path streamSplit = AppStartBenchmark.extract(
                    existing(settings.jar(), "benchmarks-app", "--jar"), Files.createDirectories(work.resolve("app")));
            Path kafkaStreams = null;
            if (variants.stream().anyMatch(v -> v.job.kafkaStreams() && !v.kafkaStreams44())) {
                kafkaStreams = AppStartBenchmark.extract(
                        existing(settings.kafkaStreamsJar(), "benchmarks-kstreams-app", "--kstreams-jar"),
                        Files.createDirectories(work.resolve("kstreams")));
            }
            Path kafkaStreams44 = null;
            if (variants.stream().anyMatch(PipelineVariant::kafkaStreams44)) {
                kafkaStreams44 = AppStartBenchmark.extract(
                        existing(settings.kafkaStreams44Jar(), "benchmarks-kstreams44-app", "--kstreams44-jar"),
                        Files.createDirectories(work.resolve("kstreams44")));
            }
            Path logback =
                    Files.writeString(work.resolve("logback-hand-wired.xml"), PipelineVariant.handWiredLogback());
            return new Jars(streamSplit, kafkaStreams, kafkaStreams44, logback);
        }

        private static Path existing(Path jar, String module, String option) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("No application jar at " + jar.toAbsolutePath()
                        + "; build it with mvn -B -q -DskipTests install -pl " + module + " -am, or give " + option);
            }
            return jar;
        }

        Path kafkaStreams(boolean line44) {
            Path jar = line44 ? kafkaStreams44OrNull : kafkaStreamsOrNull;
            if (jar == null) {
                throw new IllegalStateException("the Kafka Streams app's jar was not prepared");
            }
            return jar;
        }
    }

    /** Micrometer Tracing, its OpenTelemetry bridge, the SDK and Boot's auto-configuration of them. */
    static List<String> tracingJars() {
        List<String> jars = Arrays.stream(JvmLauncher.classPath().split(File.pathSeparator))
                .filter(entry -> TRACING_JARS.matcher(entry).find())
                .toList();
        if (jars.stream().noneMatch(jar -> jar.contains("micrometer-tracing-bridge-otel"))) {
            throw new IllegalStateException(
                    "micrometer-tracing-bridge-otel is not on this module's class path; the traced variants need it");
        }
        return jars;
    }

    /** The logback configuration of the hand-wired job: what the starter's app logs, and the checkpoint line. */
    static String handWiredLogback() {
        return """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="org.apache.kafka" level="WARN"/>
                  <logger name="org.apache.flink" level="WARN"/>
                  <logger name="org.apache.flink.runtime.checkpoint.CheckpointCoordinator" level="INFO"/>
                  <root level="INFO"><appender-ref ref="OUT"/></root>
                </configuration>
                """;
    }
}
