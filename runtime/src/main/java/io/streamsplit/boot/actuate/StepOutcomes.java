package io.streamsplit.boot.actuate;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.streamsplit.boot.flink.embedded.InProcessMetrics;
import io.streamsplit.boot.flink.embedded.RawMetric;
import io.streamsplit.boot.flink.rest.FlinkRestClient;
import io.streamsplit.boot.flink.rest.RestPoller;
import io.streamsplit.boot.job.step.JobSteps;
import io.streamsplit.pipeline.step.StepErrorRules;
import io.streamsplit.pipeline.step.StepGuard;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;

/**
 * What the pipelines' steps did with the records their code failed on: per step the records retried, skipped,
 * dead-lettered and failed on (summed over the step's subtasks, since each subtask last started), and its last
 * failures — when, what was done, which record, the exception's first line. Read from the steps' Flink metrics
 * ({@value StepGuard#METRIC_GROUP}), in-process on the embedded cluster, over Flink's REST API on a remote one.
 * Micrometer gets {@code streamsplit.step.records} (tags step, outcome), registered once the job is built.
 */
public final class StepOutcomes implements MeterBinder, DisposableBean {

    /** The outcomes, as the meter's tag says them, by the step metric that counts them. */
    static final Map<String, String> OUTCOMES = Map.of(
            StepGuard.RETRIED, "retried",
            StepGuard.SKIPPED, "skipped",
            StepGuard.DEAD_LETTERED, "dead-lettered",
            StepGuard.FAILED, "failed");

    private static final Duration FRESH = Duration.ofSeconds(2);
    // <subtask>.<operator>.StreamSplitStep.<metric>
    private static final Pattern REST_METRIC =
            Pattern.compile("^(\\d+)\\.([^.]+)\\." + StepGuard.METRIC_GROUP + "\\.(\\w+)$");

    @FunctionalInterface
    private interface Reader {
        List<RawMetric> read(String jobId) throws Exception;
    }

    private final Reader reader;
    private final JobSteps steps;
    private final Supplier<@Nullable String> jobId;
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private volatile List<RawMetric> latest = List.of();
    private volatile long readAt;
    private @Nullable RestPoller poller;

    private StepOutcomes(Reader reader, JobSteps steps, Supplier<@Nullable String> jobId) {
        this.reader = reader;
        this.steps = steps;
        this.jobId = jobId;
    }

    /** Embedded: the steps' metrics read in-process. */
    public static StepOutcomes embedded(InProcessMetrics metrics, JobSteps steps, Supplier<@Nullable String> jobId) {
        return new StepOutcomes(metrics::steps, steps, jobId);
    }

    /** Remote: the steps' metrics over Flink's REST API (as fresh as its metric fetcher). */
    public static StepOutcomes remote(FlinkRestClient rest, JobSteps steps, Supplier<@Nullable String> jobId) {
        return new StepOutcomes(job -> readRest(rest, job), steps, jobId);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        // the steps are known once the job is built, after the registry binds its meters: register them then
        poller = new RestPoller("streamsplit-step-meters", Duration.ofSeconds(1), () -> register(registry));
    }

    private void register(MeterRegistry registry) {
        for (String step : steps.all().keySet()) {
            if (registered.add(step)) {
                OUTCOMES.forEach((metric, outcome) -> FunctionCounter.builder(
                                "streamsplit.step.records", this, o -> o.count(step, metric))
                        .tag("step", step)
                        .tag("outcome", outcome)
                        .baseUnit("records")
                        .description("Records a step's code failed on, by what was done with them")
                        .register(registry));
            }
        }
    }

    /** Records of step {@code step} counted by its metric {@code metric}, over its subtasks. */
    double count(String step, String metric) {
        double sum = 0;
        for (RawMetric value : read()) {
            if (value.operator().equals(RawMetric.filter(step))
                    || value.operator().equals(step)) {
                if (value.name().equals(metric)) {
                    double number = value.asDouble();
                    sum += number > 0 ? number : 0;
                }
            }
        }
        return sum;
    }

    /** Per step: its rules, its counts and its last failures (newest first), as the endpoint shows them. */
    public Map<String, Object> describeAll() {
        Map<String, Object> all = new LinkedHashMap<>();
        List<RawMetric> values = read();
        for (Map.Entry<String, StepErrorRules> step : steps.all().entrySet()) {
            StepErrorRules rules = step.getValue();
            Map<String, Object> described = new LinkedHashMap<>();
            described.put("policy", rules.policy().yaml());
            described.put("retries", rules.retries());
            if (rules.deadLetterTopic() != null) {
                described.put("deadLetterTopic", rules.deadLetterTopic());
            }
            Map<String, Object> records = new LinkedHashMap<>();
            OUTCOMES.entrySet().stream()
                    .sorted(Map.Entry.comparingByValue())
                    .forEach(outcome -> records.put(outcome.getValue(), (long) count(step.getKey(), outcome.getKey())));
            described.put("records", records);
            described.put("lastFailures", lastFailures(step.getKey(), values));
            all.put(step.getKey(), described);
        }
        return all;
    }

    private static List<Map<String, Object>> lastFailures(String step, List<RawMetric> values) {
        List<String[]> entries = new ArrayList<>();
        for (RawMetric value : values) {
            if ((value.operator().equals(step) || value.operator().equals(RawMetric.filter(step)))
                    && value.name().equals(StepGuard.LAST_FAILURES)) {
                for (String line : String.valueOf(value.value()).split("\n")) {
                    String[] fields = line.split("\t", 4);
                    if (fields.length == 4) {
                        entries.add(fields);
                    }
                }
            }
        }
        entries.sort(Comparator.comparingLong((String[] e) -> parse(e[0])).reversed());
        List<Map<String, Object>> failures = new ArrayList<>();
        for (String[] entry : entries.subList(0, Math.min(10, entries.size()))) {
            Map<String, Object> failure = new LinkedHashMap<>();
            failure.put("time", Instant.ofEpochMilli(parse(entry[0])).toString());
            failure.put("outcome", entry[1]);
            failure.put("record", entry[2]);
            failure.put("exception", entry[3]);
            failures.add(failure);
        }
        return failures;
    }

    private static long parse(String millis) {
        try {
            return Long.parseLong(millis);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private List<RawMetric> read() {
        String job = jobId.get();
        if (job == null || steps.all().isEmpty()) {
            return List.of();
        }
        long now = System.nanoTime();
        if (now - readAt > FRESH.toNanos()) {
            try {
                latest = reader.read(job);
                readAt = now;
            } catch (Exception e) {
                // the cluster did not answer: keep the last values
            }
        }
        return latest;
    }

    private static List<RawMetric> readRest(FlinkRestClient rest, String job) throws Exception {
        List<RawMetric> values = new ArrayList<>();
        for (JsonNode vertex : rest.job(job).path("vertices")) {
            String base = "/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/metrics";
            for (JsonNode metric :
                    rest.vertexMetrics(base, id -> REST_METRIC.matcher(id).matches())) {
                Matcher m = REST_METRIC.matcher(metric.path("id").asText());
                if (m.matches()) {
                    values.add(new RawMetric(
                            m.group(2),
                            Integer.parseInt(m.group(1)),
                            null,
                            -1,
                            m.group(3),
                            metric.path("value").asText("")));
                }
            }
        }
        return values;
    }

    @Override
    public void destroy() {
        RestPoller running = poller;
        if (running != null) {
            running.stop();
        }
    }
}
