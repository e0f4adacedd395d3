package io.streamsplit.boot.job.cluster;

import static org.awaitility.Awaitility.await;

import io.streamsplit.flink.cluster.StandaloneFlinkCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The runs of a job on a test cluster that are not finished, cancelled or failed: "one job" in the cluster ITs. */
final class ActiveRuns {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ActiveRuns() {}

    /** The ids of job {@code job}'s runs on {@code cluster} that are not finished, cancelled or failed. */
    static List<String> of(StandaloneFlinkCluster cluster, String job) {
        List<String> active = new ArrayList<>();
        for (JsonNode run : JSON.readTree(cluster.get("/jobs/overview")).path("jobs")) {
            String state = run.path("state").asText();
            if (run.path("name").asText().equals(job)
                    && !List.of("FINISHED", "CANCELED", "FAILED").contains(state)) {
                active.add(run.path("jid").asText());
            }
        }
        return active;
    }

    /** The id of job {@code job}'s run that is RUNNING with all its subtasks, or {@code null}. */
    static String running(StandaloneFlinkCluster cluster, String job) {
        try {
            for (String run : of(cluster, job)) {
                if (cluster.allTasksRunning(run)) {
                    return run;
                }
            }
        } catch (RuntimeException notYet) {
            return null;
        }
        return null;
    }

    /** The one active run of {@code job}, once there is exactly one, within {@code timeout}. */
    static String one(StandaloneFlinkCluster cluster, String job, Duration timeout) {
        await().atMost(timeout).until(() -> of(cluster, job).size() == 1);
        return of(cluster, job).get(0);
    }
}
