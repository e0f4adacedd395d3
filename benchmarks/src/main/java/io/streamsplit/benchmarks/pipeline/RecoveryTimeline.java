package io.streamsplit.benchmarks.pipeline;

import io.streamsplit.benchmarks.BenchmarkSupport;
import io.streamsplit.benchmarks.RoundRatio;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import tools.jackson.databind.JsonNode;

/**
 * One recovery from a killed TaskManager, in ms, from the cluster's own timestamps (its REST API) and the
 * harness's clock (same machine):
 *
 * <ul>
 *   <li>{@code detect}: kill → the job's first failure after it (exception history);
 *   <li>{@code restart}: → the tasks of the attempt that ran scheduled (the restart delay, and any attempt
 *       that failed on the dead TaskManager's slots);
 *   <li>{@code slots}: → the last task got its slot (DEPLOYING);
 *   <li>{@code deploy}: → the last task started (INITIALIZING);
 *   <li>{@code init}: → the last task ran (RUNNING): state restored, the sink's transactions recovered;
 *   <li>{@code output}: → the first committed output answering a payment sent after the kill (the first
 *       fetch, the backlog since the restored checkpoint, the next checkpoint and its commit);
 *   <li>{@code total}: kill → that output.
 * </ul>
 */
record RecoveryTimeline(
        String variant,
        double detect,
        double restart,
        double slots,
        double deploy,
        double init,
        double output,
        double total,
        long restarts,
        String cause) {

    static final String HEADER =
            "| job | detect | restart | slots | deploy | init | output | total | restarts | total vs first |\n"
                    + "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |";

    /**
     * The timeline of a recovery: {@code exceptions} is {@code GET /jobs/<id>/exceptions}, {@code subtaskTimes}
     * each vertex's {@code GET /jobs/<id>/vertices/<v>/subtasktimes}.
     */
    static RecoveryTimeline of(
            String variant,
            long killedAt,
            JsonNode exceptions,
            List<JsonNode> subtaskTimes,
            long firstOutputAt,
            long restarts) {
        long failedAt = Long.MAX_VALUE;
        String cause = "none recorded";
        for (JsonNode entry : exceptions.path("exceptionHistory").path("entries")) {
            long at = entry.path("timestamp").asLong();
            if (at >= killedAt && at < failedAt) {
                failedAt = at;
                cause = firstLine(entry.path("stacktrace")
                        .asText(entry.path("exceptionName").asText()));
            }
        }
        long scheduled = Long.MAX_VALUE;
        long deploying = 0;
        long initializing = 0;
        long running = 0;
        for (JsonNode vertex : subtaskTimes) {
            for (JsonNode subtask : vertex.path("subtasks")) {
                JsonNode t = subtask.path("timestamps");
                scheduled = Math.min(scheduled, t.path("SCHEDULED").asLong(Long.MAX_VALUE));
                deploying = Math.max(deploying, t.path("DEPLOYING").asLong());
                initializing = Math.max(initializing, t.path("INITIALIZING").asLong());
                running = Math.max(running, t.path("RUNNING").asLong());
            }
        }
        if (failedAt == Long.MAX_VALUE || scheduled == Long.MAX_VALUE || running == 0) {
            throw new IllegalStateException(variant + ": the cluster recorded no failure or no restarted tasks after"
                    + " the kill (failure " + failedAt + ", scheduled " + scheduled + ", running " + running + ")");
        }
        return new RecoveryTimeline(
                variant,
                failedAt - killedAt,
                scheduled - failedAt,
                deploying - scheduled,
                initializing - deploying,
                running - initializing,
                firstOutputAt - running,
                firstOutputAt - killedAt,
                restarts,
                cause);
    }

    /** One run, for the log: every phase and the failure's first line. */
    String line() {
        return String.format(
                Locale.ROOT,
                "detect %,6.0f  restart %,6.0f  slots %,5.0f  deploy %,5.0f  init %,5.0f  output %,6.0f  total %,7.0f ms"
                        + "  (%d restarts; %s)",
                detect,
                restart,
                slots,
                deploy,
                init,
                output,
                total,
                restarts,
                cause);
    }

    /** A table row of the medians of {@code runs}, with the ratio of the totals given. */
    static String medianRow(String variant, List<RecoveryTimeline> runs, RoundRatio totalRatio) {
        return String.format(
                Locale.ROOT,
                "| %s | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %.0f | %s |",
                variant,
                median(runs, RecoveryTimeline::detect),
                median(runs, RecoveryTimeline::restart),
                median(runs, RecoveryTimeline::slots),
                median(runs, RecoveryTimeline::deploy),
                median(runs, RecoveryTimeline::init),
                median(runs, RecoveryTimeline::output),
                median(runs, RecoveryTimeline::total),
                median(runs, r -> r.restarts()),
                totalRatio);
    }

    private static double median(List<RecoveryTimeline> runs, ToDoubleFunction<RecoveryTimeline> f) {
        return BenchmarkSupport.median(runs.stream().mapToDouble(f).boxed().toList());
    }

    private static String firstLine(String text) {
        String line = text.lines().findFirst().orElse("");
        return line.length() > 140 ? line.substring(0, 140) + "…" : line;
    }
}
