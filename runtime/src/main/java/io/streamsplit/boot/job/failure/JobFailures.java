package io.streamsplit.boot.job.failure;

import io.streamsplit.boot.kafka.KafkaFailures;
import io.streamsplit.boot.kafka.KafkaProblem;
import io.streamsplit.boot.kafka.KafkaSinks;
import io.streamsplit.boot.kafka.KafkaSources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Says what a failure of the running job means in {@code application.yml}'s terms: which source or
 * sink, which {@code streamsplit.*} property and value, and what to do. Works on the failure's text
 * (Flink's REST exception history, or a local exception), because a remote job's exceptions arrive as
 * Flink's serialized copies.
 */
public final class JobFailures {

    private static final Pattern MISSING_TOPIC =
            Pattern.compile("Topic (\\S+) not present in metadata after (\\d+) ms");
    private static final Pattern SOURCE_TASK = Pattern.compile("Source: ([^ ]+)");
    private static final Pattern SOURCE_MESSAGE = Pattern.compile("Source ([^ ]+) could not discover partitions");
    private static final Pattern REGISTRY_DOWN = Pattern.compile(
            "UnavailableException: The schema registry (?:at )?(\\S+) (does not answer[^\\n]*|answered[^\\n]*)");

    private static final Pattern NETWORK_BUFFERS =
            Pattern.compile("Insufficient number of network buffers: required (\\d+), but only (\\d+) available\\."
                    + " The total number of network buffers is currently set to (\\d+) of (\\d+) bytes each");

    private static final String NETWORK_MEMORY = "streamsplit.flink.embedded.network-memory";

    private static final Pattern RECORD_TOO_LARGE = Pattern.compile("The message is (\\d+) bytes when serialized which"
            + " is larger than (\\d+), which is the value of the max.request.size configuration");
    private static final Pattern SINK_TASK = Pattern.compile("sink ([^ :]+): Writer");

    /** A step's {@code fail} policy: its message names the step, the record, the attempts and the fix. */
    private static final Pattern STEP_FAILED = Pattern.compile("StepFailedException: ([^\n]+)");
    /** The record an operator chained to a source failed on, added by the source as a suppressed exception. */
    private static final Pattern ON_RECORD = Pattern.compile("KafkaSourceRecordEmitter\\$OnRecord: ([^\n]+)");

    private static final Pattern DENIED_TOPICS = Pattern.compile("Not authorized to access topics: \\[([^\\]]*)\\]");

    private final KafkaSources sources;
    private final KafkaSinks sinks;
    private final @Nullable String schemaRegistryUrl;
    private final boolean embedded;
    private final String principal;

    /**
     * @param schemaRegistryUrl {@code streamsplit.kafka.schema-registry.url}, or {@code null}
     * @param embedded whether the job runs on the embedded MiniCluster, whose memory {@code streamsplit.flink.*}
     *     sizes (a Flink cluster's TaskManagers are sized by their own configuration)
     * @param principal the principal Kafka sees the job's clients as ({@code User:orders-app}), for access errors
     */
    public JobFailures(
            KafkaSources sources,
            KafkaSinks sinks,
            @Nullable String schemaRegistryUrl,
            boolean embedded,
            String principal) {
        this.sources = sources;
        this.sinks = sinks;
        this.schemaRegistryUrl = schemaRegistryUrl;
        this.embedded = embedded;
        this.principal = principal;
    }

    /**
     * The failure as a problem with one of the configured sources or sinks, or {@code null} when it is
     * not a Kafka problem StreamSplit can name.
     *
     * @param failure the failure's text: exception class names, messages and causes
     * @param taskName the failed task ({@code Source: orders -> Map (1/2)}), or {@code null} for a job-wide failure
     */
    public @Nullable KafkaProblem translate(String failure, @Nullable String taskName) {
        Matcher missing = MISSING_TOPIC.matcher(failure);
        if (missing.find()) {
            return missingSinkTopic(missing.group(1), missing.group(2));
        }
        Matcher buffers = NETWORK_BUFFERS.matcher(failure);
        if (buffers.find() && embedded) {
            return tooLittleNetworkMemory(
                    Long.parseLong(buffers.group(1)),
                    Long.parseLong(buffers.group(2)),
                    Long.parseLong(buffers.group(3)),
                    Long.parseLong(buffers.group(4)));
        }
        Matcher tooLarge = RECORD_TOO_LARGE.matcher(failure);
        if (tooLarge.find()) {
            return recordTooLarge(sink(failure, taskName), tooLarge.group(1), tooLarge.group(2));
        }
        Matcher registry = REGISTRY_DOWN.matcher(failure);
        if (registry.find()) {
            return new KafkaProblem(
                    "streamsplit.kafka.schema-registry.url",
                    String.valueOf(schemaRegistryUrl),
                    "the schema registry at " + registry.group(1) + " "
                            + registry.group(2).trim()
                            + ", so records of format avro-confluent cannot be read; nothing is dead-lettered for it",
                    "Start the registry (or fix its URL or credentials): the job restarts from its last checkpoint"
                            + " and reads the same records again.");
        }
        String source = source(failure, taskName);
        if (source != null && sources.names().contains(source)) {
            KafkaSources.Reading reading = sources.reading(source);
            String p = KafkaSources.prefix(source);
            String servers = reading.bootstrapServers();
            String serversProperty = reading.bootstrapServersProperty();
            if (failure.contains("No resolvable bootstrap urls")) {
                return new KafkaProblem(
                        serversProperty,
                        servers,
                        "source '" + source + "' cannot reach Kafka: no host" + " in " + servers + " resolves",
                        "Fix the host names in " + serversProperty + ".");
            }
            if (failure.contains("TimeoutException") || failure.contains("could not discover partitions")) {
                return new KafkaProblem(
                        serversProperty,
                        servers,
                        "source '" + source + "' gets no answer from Kafka" + " at " + servers,
                        "Check that the brokers run and that " + serversProperty + " names" + " their listener.");
            }
            if (failure.contains("UnknownTopicOrPartitionException")) {
                return new KafkaProblem(
                        p + "topics",
                        String.join(",", reading.topics()),
                        "a topic of source '" + source + "' no longer exists",
                        "Create it again, or remove it from " + p + "topics.");
            }
        }
        Matcher denied = DENIED_TOPICS.matcher(failure);
        if (denied.find()) {
            return deniedTopics(denied.group(1).trim(), source);
        }
        String access = KafkaFailures.explain(failure);
        return access == null
                ? null
                : new KafkaProblem(
                        source == null ? "streamsplit.kafka.properties" : KafkaSources.prefix(source) + "properties",
                        "(not shown)",
                        access,
                        "Grant it on the Kafka" + " cluster, or fix the client's credentials.");
    }

    /** One sentence for {@code stacktrace}: the StreamSplit problem, or the root cause. */
    public String describe(String stacktrace, @Nullable String taskName) {
        KafkaProblem problem = translate(stacktrace, taskName);
        if (problem != null) {
            return problem.problem() + " (" + problem.property() + " = '" + problem.value() + "'). " + problem.action();
        }
        Matcher step = STEP_FAILED.matcher(stacktrace);
        if (step.find()) {
            return step.group(1).trim() + ".";
        }
        Matcher onRecord = ON_RECORD.matcher(stacktrace);
        String record = onRecord.find() ? ", " + onRecord.group(1).trim() : "";
        return rootCause(stacktrace) + record + (taskName == null ? "." : " (in " + taskName + ").");
    }

    /**
     * The first cause under Flink's own wrapper (the connector names topic, partition and offset there)
     * and the innermost cause; the top line when there is no cause.
     */
    public static String rootCause(String stacktrace) {
        String top = null;
        List<String> causes = new ArrayList<>();
        for (String line : stacktrace.split("\n")) {
            if (top == null && !line.isBlank()) {
                top = line.trim();
            }
            if (line.startsWith("Caused by: ")) {
                causes.add(line.substring("Caused by: ".length()).trim());
            }
        }
        String root = causes.isEmpty()
                ? top
                : causes.size() == 1
                        ? causes.get(0)
                        : causes.get(0) + " (caused by " + causes.get(causes.size() - 1) + ")";
        return root == null ? "(no message)" : root.replaceAll("\\.+$", "");
    }

    /**
     * The class of the innermost cause in {@code stacktrace} (Flink's {@code SerializedThrowable} copies name the
     * original class first), or of the exception itself when it has no cause.
     */
    public static String rootCauseClass(String stacktrace) {
        String root = null;
        for (String line : stacktrace.split("\n")) {
            String text = line.startsWith("Caused by: ") ? line.substring("Caused by: ".length()) : null;
            if (root == null && !line.isBlank()) {
                text = line;
            }
            if (text != null) {
                int colon = text.indexOf(':');
                String name = (colon < 0 ? text : text.substring(0, colon)).trim();
                if (!name.isEmpty() && !name.contains(" ")) {
                    root = name;
                }
            }
        }
        return root == null ? "unknown" : root;
    }

    private @Nullable KafkaProblem missingSinkTopic(String topic, String waitedMillis) {
        for (Map.Entry<String, KafkaSinks.Configured> sink : sinks.configured().entrySet()) {
            if (topic.equals(sink.getValue().topic())) {
                return new KafkaProblem(
                        "streamsplit.kafka.sinks." + sink.getKey() + ".topic",
                        topic,
                        "sink '"
                                + sink.getKey() + "' writes to topic '" + topic + "', which was not in Kafka's metadata"
                                + " within " + waitedMillis
                                + " ms: the topic does not exist, or its brokers do not answer",
                        "Create the topic (or set streamsplit.kafka.create-topics.enabled=true to create it at"
                                + " startup), or check the sink's bootstrap servers.");
            }
        }
        for (String source : sources.names()) {
            if (topic.equals(sources.reading(source).deadLetterTopic())) {
                return new KafkaProblem(
                        KafkaSources.prefix(source) + "dead-letter-topic",
                        topic,
                        "the dead letters of source '" + source + "' go to topic '" + topic + "', which"
                                + " does not exist",
                        "Create the topic, or set"
                                + " streamsplit.kafka.create-topics.enabled=true to create it at startup.");
            }
        }
        return new KafkaProblem(
                "streamsplit.kafka.sinks",
                topic,
                "the job writes to topic '" + topic + "', which does" + " not exist",
                "Create the topic.");
    }

    /**
     * A record the sink's producer refuses before sending it: the job fails at it, and again at the same record
     * after every restart, so the size and the setting that allows it are what the user needs.
     */
    private static KafkaProblem recordTooLarge(@Nullable String sink, String bytes, String limit) {
        String property = sink == null
                ? "streamsplit.kafka.sinks.<name>.properties.max.request.size"
                : "streamsplit.kafka.sinks." + sink + ".properties.max.request.size";
        return new KafkaProblem(
                property,
                limit,
                (sink == null ? "a sink" : "sink '" + sink + "'") + " cannot write a record of " + bytes
                        + " bytes: it is larger than the producer's max.request.size (" + limit + " bytes), so the"
                        + " job fails at that record, and again at it after every restart",
                "Raise " + property + " above " + bytes + " (and the topic's max.message.bytes with it), keep"
                        + " records this large out of the sink (filter or split them in the pipeline), or set "
                        + (sink == null ? "streamsplit.kafka.sinks.<name>." : "streamsplit.kafka.sinks." + sink + ".")
                        + "oversize-record-policy=skip to leave such records out, counted.");
    }

    /** The sink of a failed task ({@code … -> sink orders: Writer -> …}) or, failing that, of a topic in the text. */
    private @Nullable String sink(String failure, @Nullable String taskName) {
        Matcher task = SINK_TASK.matcher(taskName == null ? "" : taskName);
        List<String> inTask = new ArrayList<>();
        while (task.find()) {
            inTask.add(task.group(1));
        }
        if (inTask.size() == 1) {
            return inTask.get(0);
        }
        for (Map.Entry<String, KafkaSinks.Configured> sink : sinks.configured().entrySet()) {
            String topic = sink.getValue().topic();
            if ((inTask.isEmpty() || inTask.contains(sink.getKey())) && topic != null && failure.contains(topic)) {
                return sink.getKey();
            }
        }
        return null;
    }

    /**
     * Kafka took a topic away from the job's principal (an ACL revoked while it runs, or never granted for a topic
     * found later): which topics, which principal, and the grant that lets the job go on by itself, since it
     * restarts from its last checkpoint until the topic is readable (or writable) again.
     */
    private KafkaProblem deniedTopics(String topics, @Nullable String source) {
        String reader = source != null && sources.names().contains(source) ? source : null;
        boolean read = reader != null;
        String operation = read ? "Read" : "Write";
        return new KafkaProblem(
                reader != null ? KafkaSources.prefix(reader) + "topics" : "streamsplit.kafka.sinks",
                topics,
                "Kafka denies " + principal + " access to topic(s) " + topics + " while the job runs ("
                        + (read ? "source '" + source + "' needs READ and DESCRIBE" : "a sink needs WRITE")
                        + "); the job restarts from its last checkpoint until it is granted, nothing is skipped",
                "Grant it, e.g. kafka-acls.sh --bootstrap-server <broker> --command-config admin.properties --add"
                        + " --allow-principal " + principal + " --operation " + operation
                        + (read ? " --operation Describe" : "") + " --topic " + topics.split(",\\s*")[0]
                        + "; the job resumes at its next restart.");
    }

    /**
     * Flink's own message names Flink's keys ({@code taskmanager.memory.network.*}), which an embedded
     * application does not set: name ours, with a size that covers what the failed task asked for.
     */
    private static KafkaProblem tooLittleNetworkMemory(long required, long available, long total, long bufferBytes) {
        long mb = 1 << 20;
        long atLeastMb = ((total + required - available) * bufferBytes + mb - 1) / mb;
        return new KafkaProblem(
                NETWORK_MEMORY,
                (total * bufferBytes + mb - 1) / mb + "MB",
                "the embedded Flink MiniCluster's network memory is used up: a task of the job needs " + required
                        + " network buffers of " + bufferBytes / 1024 + " KB and " + available + " of " + total
                        + " are free (each exchange between parallel operators, such as a key-by, takes buffers per"
                        + " channel: about parallelism squared)",
                "Raise " + NETWORK_MEMORY + " to at least " + atLeastMb + "MB (twice that leaves room for the"
                        + " job's other tasks), or lower streamsplit.flink.parallelism.");
    }

    private static @Nullable String source(String failure, @Nullable String taskName) {
        Matcher task = SOURCE_TASK.matcher(taskName == null ? "" : taskName);
        if (task.find()) {
            return task.group(1);
        }
        Matcher message = SOURCE_MESSAGE.matcher(failure);
        return message.find() ? message.group(1) : null;
    }
}
