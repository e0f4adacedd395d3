package io.streamsplit.boot.actuate;

import io.streamsplit.boot.job.StreamSplitJob;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code /actuator/kafkasplits}: every configured source and every split it reads, live; and
 * {@code /actuator/kafkasplits/{source}} for one source. A POST triggers a savepoint and returns
 * its path. Exposed over the web only when included
 * ({@code management.endpoints.web.exposure.include=health,kafkasplits}).
 */
@Endpoint(id = "kafkasplits")
public class KafkaSplitsEndpoint {

    private final KafkaSplitStates splits;
    private final StreamSplitJob job;

    public KafkaSplitsEndpoint(KafkaSplitStates splits, StreamSplitJob job) {
        this.splits = splits;
        this.job = job;
    }

    @ReadOperation
    public JobSplits splits() {
        return splits.read();
    }

    /** One source; {@code null} (404) for a name that is not configured. */
    @ReadOperation
    public @Nullable JobSplits source(@Selector String source) {
        JobSplits all = splits.read();
        if (all.message() == null && !all.sources().containsKey(source)) {
            return null;
        }
        Map<String, SourceState> one =
                all.sources().containsKey(source) ? Map.of(source, all.sources().get(source)) : Map.of();
        return new JobSplits(all.job(), all.jobId(), all.status(), all.mode(), all.readAt(), all.message(), one);
    }

    /** Triggers a savepoint of the running job and returns its path (restart from it with streamsplit.flink.restore-path). */
    @WriteOperation
    public Map<String, String> savepoint() throws Exception {
        if (!job.submission().isDone() || job.submission().isCompletedExceptionally()) {
            return Map.of("error", "no running job");
        }
        JobClient client = job.submission().join();
        String path = client.triggerSavepoint(job.savepointDirectory(), SavepointFormatType.CANONICAL)
                .get(5, TimeUnit.MINUTES);
        return Map.of("savepoint", path, "jobId", client.getJobID().toString());
    }
}
