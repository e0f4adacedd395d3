package io.streamsplit.benchmarks.isolated;

import io.streamsplit.benchmarks.BenchmarkSupport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How fast a StreamSplit application starts and how much memory it keeps, as {@code java -jar}
 * runs it: the benchmarks app (one source, a map, a sink, Actuator over HTTP, embedded MiniCluster)
 * against a broker in its own JVM, with input already waiting. Per run it prints, from process
 * start: the context ready (Spring Boot's "Started ..." line), the job submitted (StreamSplit's
 * "Submitted Flink job" line), the first output record (seen by a consumer of the sink's topic), and
 * the app's resident memory after {@code --rss-after} seconds. Every configuration runs
 * {@code --rounds} times, configurations interleaved:
 *
 * <ul>
 *   <li>{@code fat-jar}: {@code java -jar app.jar}, no options;
 *   <li>{@code small}: the same with {@link #SMALL} (heap, GC, thread stacks, code cache);
 *   <li>{@code extracted}: the jar extracted with Spring Boot's {@code -Djarmode=tools extract};
 *   <li>{@code cds}: extracted, with a class data sharing archive from a training run
 *       ({@code -XX:ArchiveClassesAtExit}, {@code -Dspring.context.exit=onRefresh});
 *   <li>{@code cds-small}: both;
 *   <li>{@code cds-c1}, {@code cds-small-c1}: with {@link #C1_ONLY} too;
 *   <li>{@code java25}: extracted, on Java 25 ({@code --java25}, the JDK's directory), the app built for 17;
 *   <li>{@code aot25}, {@code aot25-small}: on Java 25 with an AOT cache from a training run ({@code
 *       -XX:AOTCacheOutput}, {@code -Dspring.context.exit=onRefresh}: what Spring Boot documents), without
 *       and with {@link #SMALL}.
 * </ul>
 *
 * <pre>
 * mvn -B -q -DskipTests install -pl benchmarks -am
 * mvn -B -q exec:java -pl benchmarks -Dexec.mainClass=io.streamsplit.benchmarks.isolated.AppStartBenchmark \
 *     -Dexec.args="--rounds 3 --rss-after 60 --configs fat-jar,small,cds,cds-small"
 * </pre>
 *
 * <p>{@code --app-args} passes more arguments to the app, e.g. {@code
 * --streamsplit.kafka.sinks.out.delivery-guarantee=exactly-once} for an exactly-once one; the first
 * output is what a read_committed consumer sees. {@code --startup-steps N} prints each run's {@code N} slowest
 * Spring start-up steps (the app's {@code BufferingApplicationStartup}, each step's own time): where the
 * context's refresh goes.
 */
public final class AppStartBenchmark {

    /** The documented JVM options for a small StreamSplit application (docs/deployment.md). */
    static final List<String> SMALL =
            List.of("-XX:+UseSerialGC", "-Xmx256m", "-Xss512k", "-XX:ReservedCodeCacheSize=64m");

    /** C1 only: less JIT work at start on few cores, at the price of peak throughput. */
    static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    private static List<String> small = SMALL;

    /** The Java 25 JDK the {@code java25} and {@code aot25*} configurations run on. */
    private static Path java25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    /** How many of the app's slowest start-up steps to print per run ({@code --startup-steps}); 0: none. */
    private static int startupSteps = 0;

    /** More arguments for the app, e.g. {@code --streamsplit.kafka.sinks.out.delivery-guarantee=exactly-once}. */
    private static List<String> appArgs = List.of();

    /** One start of the app: seconds from process start, RSS in MB; -1 where not seen. */
    record AppRun(String config, double contextReady, double jobSubmitted, double firstOutput, double rssMb) {}

    private AppStartBenchmark() {}

    /**
     * The benchmarks app's jar, from the repository's root ({@code exec:java}) or from a module's directory
     * (the ITs); the root's path when neither has it, for the error message.
     */
    public static Path benchmarksAppJar() {
        Path fromRoot = Path.of("benchmarks-app", "target", "streamsplit-benchmarks-app-exec.jar");
        Path fromModule = Path.of("..").resolve(fromRoot);
        return Files.isRegularFile(fromRoot) || !Files.isRegularFile(fromModule) ? fromRoot : fromModule;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("jar", benchmarksAppJar().toString());
        f.put("rounds", "3");
        f.put("rss-after", "60");
        f.put("configs", "fat-jar,small,cds,cds-small");
        f.put("records", "1000");
        f.put("small", String.join(" ", SMALL));
        f.put("app-args", "");
        f.put("java25", java25.toString());
        f.put("startup-steps", "0");
        f = BenchmarkSupport.options(f, args);
        startupSteps = Integer.parseInt(f.get("startup-steps"));
        java25 = Path.of(f.get("java25"));
        small = List.of(f.get("small").trim().split("\\s+"));
        appArgs = f.get("app-args").isBlank()
                ? List.of()
                : List.of(f.get("app-args").trim().split("\\s+"));
        run(
                Path.of(f.get("jar")),
                List.of(f.get("configs").split(",")),
                Integer.parseInt(f.get("rounds")),
                Duration.ofSeconds(Long.parseLong(f.get("rss-after"))),
                Integer.parseInt(f.get("records")),
                System.out);
    }

    static List<AppRun> run(Path jar, List<String> configs, int rounds, Duration rssAfter, int records, PrintStream out)
            throws Exception {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("No application jar at " + jar.toAbsolutePath()
                    + "; build it with mvn -B -q -DskipTests install -pl benchmarks-app -am, or give --jar");
        }
        Path work = Files.createTempDirectory("app-start");
        List<AppRun> runs = new ArrayList<>();
        try (BrokerProcess broker = BrokerProcess.start(work)) {
            String bootstrap = broker.bootstrapServers();
            IsolatedBenchmark.createTopics(bootstrap, List.of("start.in"), 1);
            BenchmarkSupport.writeRecords(
                    bootstrap, "start.in", records, i -> ("record " + i).getBytes(StandardCharsets.UTF_8));
            Launch launch = new Launch(jar, work, bootstrap);
            int n = 0;
            for (int round = 1; round <= rounds; round++) {
                for (String config : configs) {
                    String output = "start.out-" + n;
                    IsolatedBenchmark.createTopics(bootstrap, List.of(output), 1);
                    AppRun run = startOnce(
                            launch.command(config, "run-" + n++, output), config, bootstrap, output, rssAfter);
                    runs.add(run);
                    out.printf(
                            Locale.ROOT,
                            "round %d %-10s context ready %5.2f s  job submitted %5.2f s  first output %5.2f s"
                                    + "  RSS after %d s %,4.0f MB%n",
                            round,
                            config,
                            run.contextReady(),
                            run.jobSubmitted(),
                            run.firstOutput(),
                            rssAfter.toSeconds(),
                            run.rssMb());
                }
            }
        }
        out.println();
        for (String config : configs) {
            List<AppRun> of =
                    runs.stream().filter(r -> r.config().equals(config)).toList();
            out.printf(
                    Locale.ROOT,
                    "median %-10s context ready %5.2f s  job submitted %5.2f s  first output %5.2f s  RSS after %d s"
                            + " %,4.0f MB   (%s)%n",
                    config,
                    median(of, AppRun::contextReady),
                    median(of, AppRun::jobSubmitted),
                    median(of, AppRun::firstOutput),
                    rssAfter.toSeconds(),
                    median(of, AppRun::rssMb),
                    String.join(
                            " ",
                            cds(config)
                                    ? concat(List.of("-XX:SharedArchiveFile=app.jsa"), flags(config))
                                    : config.startsWith("aot25")
                                            ? concat(List.of("Java 25", "-XX:AOTCache=app.aot"), flags(config))
                                            : onJava25(config)
                                                    ? concat(List.of("Java 25"), flags(config))
                                                    : flags(config)));
        }
        return runs;
    }

    /**
     * Extracts a Spring Boot jar with {@code -Djarmode=tools extract} into {@code work}: the app's jar with
     * its libraries beside it in the manifest's class path, so {@code java -cp} sees one flat class path.
     */
    public static Path extract(Path jar, Path work) throws IOException, InterruptedException {
        Path dir = work.resolve("extracted");
        exec(
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Djarmode=tools",
                        "-jar",
                        jar.toString(),
                        "extract",
                        "--destination",
                        dir.toString()),
                work);
        return dir.resolve(jar.getFileName());
    }

    private static void exec(List<String> command, Path work) throws IOException, InterruptedException {
        Path log = work.resolve("prepare.log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!process.waitFor(180, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException(
                    String.join(" ", command) + " failed; its output:\n" + Files.readString(log));
        }
    }

    /** Whether a configuration starts the extracted jar from a CDS archive (every {@code cds*} one). */
    static boolean cds(String config) {
        return config.startsWith("cds");
    }

    /** Whether a configuration runs on Java 25 ({@code java25}, {@code aot25*}). */
    static boolean onJava25(String config) {
        return config.startsWith("java25") || config.startsWith("aot25");
    }

    /** The JVM options a configuration adds besides the archive. */
    static List<String> flags(String config) {
        return switch (config) {
            case "fat-jar", "extracted", "cds", "java25", "aot25" -> List.of();
            case "small", "cds-small", "aot25-small" -> small;
            case "cds-c1" -> List.of(C1_ONLY);
            case "cds-small-c1" -> concat(List.of(C1_ONLY), small);
            default ->
                throw new IllegalArgumentException("unknown configuration " + config
                        + "; known: fat-jar, small, extracted, cds, cds-small, cds-c1, cds-small-c1, java25, aot25,"
                        + " aot25-small");
        };
    }

    /** Builds each configuration's command; extracts the jar and trains the CDS archive once, when first needed. */
    private static final class Launch {
        private final Path jar;
        private final Path work;
        private final String bootstrap;
        private Path extractedJar;
        private Path archive;
        private Path aotCache;

        Launch(Path jar, Path work, String bootstrap) {
            this.jar = jar;
            this.work = work;
            this.bootstrap = bootstrap;
        }

        List<String> command(String config, String group, String output) throws Exception {
            List<String> app = appArgs(group, output);
            List<String> command = new ArrayList<>(List.of(onJava25(config) ? java25() : java()));
            if (cds(config)) {
                command.add("-XX:SharedArchiveFile=" + archive(group, output));
            }
            if (config.startsWith("aot25")) {
                command.add("-XX:AOTCache=" + aotCache(group, output));
            }
            command.addAll(flags(config));
            if (startupSteps > 0) {
                command.add("-Dbenchmark.startup-steps=" + startupSteps);
            }
            boolean fatJar = config.equals("fat-jar") || config.equals("small");
            command.addAll(List.of("-jar", (fatJar ? jar : extracted()).toString()));
            command.addAll(app);
            return command;
        }

        private List<String> appArgs(String group, String output) {
            List<String> args = new ArrayList<>(List.of(
                    "--streamsplit.kafka.bootstrap-servers=" + bootstrap,
                    "--streamsplit.kafka.sources.in.group-id=" + group,
                    "--streamsplit.kafka.sinks.out.topic=" + output,
                    // every run is a first start: checkpoints of its own, not the last run's to resume from
                    "--streamsplit.flink.checkpointing.storage="
                            + work.toAbsolutePath()
                                    .resolve("checkpoints-" + group)
                                    .toUri(),
                    "--server.port=0"));
            args.addAll(AppStartBenchmark.appArgs);
            return args;
        }

        private Path extracted() throws IOException, InterruptedException {
            if (extractedJar == null) {
                extractedJar = extract(jar, work);
            }
            return extractedJar;
        }

        private Path archive(String group, String output) throws Exception {
            if (archive == null) {
                Path jsa = work.resolve("app.jsa");
                // -Xlog: a few hundred "[warning][cds] ... not supported by CDS" lines say nothing to act on
                train(
                        List.of(java(), "-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"),
                        group,
                        output);
                archive = jsa;
            }
            return archive;
        }

        /** Java 25's AOT cache of the app, from one training run that stops once the context is refreshed. */
        private Path aotCache(String group, String output) throws Exception {
            if (aotCache == null) {
                Path aot = work.resolve("app.aot");
                train(List.of(java25(), "-XX:AOTCacheOutput=" + aot, "-Xlog:aot=off", "-Xlog:cds=off"), group, output);
                aotCache = aot;
            }
            return aotCache;
        }

        /** A training run of the extracted app with {@code jvm} (the java command and its options) until refreshed. */
        private void train(List<String> jvm, String group, String output) throws Exception {
            List<String> training = new ArrayList<>(jvm);
            training.addAll(List.of(
                    "-Dspring.context.exit=onRefresh", "-jar", extracted().toString()));
            training.addAll(appArgs(group + "-training", output));
            exec(training, work);
        }

        private static String java() {
            return Path.of(System.getProperty("java.home"), "bin", "java").toString();
        }

        private static String java25() {
            Path java = java25.resolve("bin").resolve("java");
            if (!Files.isExecutable(java)) {
                throw new IllegalArgumentException(
                        "No Java 25 at " + java25 + " (--java25): the java25 and aot25 configurations need its JDK");
            }
            return java.toString();
        }
    }

    private static AppRun startOnce(
            List<String> command, String config, String bootstrap, String output, Duration rssAfter) throws Exception {
        AtomicLong contextReady = new AtomicLong();
        AtomicLong jobSubmitted = new AtomicLong();
        List<String> lines = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        Process app = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread logReader = new Thread(
                () -> {
                    try (BufferedReader reader =
                            new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = reader.readLine()) != null; ) {
                            long now = System.nanoTime();
                            lines.add(line);
                            if (line.contains("Started UppercaseApplication in")) {
                                contextReady.compareAndSet(0, now);
                            } else if (line.contains("Submitted Flink job")) {
                                jobSubmitted.compareAndSet(0, now);
                            }
                        }
                    } catch (IOException e) {
                        // the process ended
                    }
                },
                "app-log");
        logReader.setDaemon(true);
        logReader.start();
        try {
            long firstOutput = firstRecord(bootstrap, output, app, Duration.ofSeconds(60));
            if (firstOutput == 0) {
                throw new IllegalStateException(
                        config + ": no output record within 60 s; the app's output:\n" + String.join("\n", lines));
            }
            long rssAt = start + rssAfter.toNanos();
            while (System.nanoTime() < rssAt && app.isAlive()) {
                TimeUnit.MILLISECONDS.sleep(Math.min(500, Math.max(1, (rssAt - System.nanoTime()) / 1_000_000)));
            }
            double rss = ProcStats.rssMb(app.pid());
            int steps = lines.indexOf("Start-up steps, slowest first (own time; children's taken out):");
            if (steps >= 0) {
                System.out.println(config + ": "
                        + String.join("\n", lines.subList(steps, Math.min(lines.size(), steps + 1 + startupSteps))));
            }
            return new AppRun(
                    config,
                    seconds(contextReady.get(), start),
                    seconds(jobSubmitted.get(), start),
                    seconds(firstOutput, start),
                    rss);
        } finally {
            app.destroy(); // SIGTERM: the app stops its job and closes the MiniCluster
            if (!app.waitFor(30, TimeUnit.SECONDS)) {
                app.destroyForcibly().waitFor();
            }
        }
    }

    /** {@code System.nanoTime()} when the first record of {@code topic} was polled; 0 if none came in time. */
    private static long firstRecord(String bootstrap, String topic, Process app, Duration timeout) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        // what a downstream consumer of an exactly-once sink sees: the first committed record
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline && app.isAlive()) {
                if (!consumer.poll(Duration.ofMillis(20)).isEmpty()) {
                    return System.nanoTime();
                }
            }
            return 0;
        }
    }

    private static double seconds(long nanos, long start) {
        return nanos == 0 ? -1 : (nanos - start) / 1e9;
    }

    private static double median(List<AppRun> runs, java.util.function.ToDoubleFunction<AppRun> f) {
        return BenchmarkSupport.median(runs.stream().mapToDouble(f).boxed().toList());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
