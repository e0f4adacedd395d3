package io.streamsplit.boot.lineage;

import io.openlineage.client.OpenLineage;
import io.openlineage.client.OpenLineageClient;
import io.openlineage.client.transports.Transport;
import io.streamsplit.boot.job.JobLineage;
import io.streamsplit.boot.job.StreamSplitJob;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * Sends OpenLineage run events for each run of the job: START when it is submitted, RUNNING once Flink runs it,
 * then COMPLETE (Flink says FINISHED: bounded sources read to their end, or stopped with a savepoint as the
 * application shuts down), FAIL (the job failed for good) or ABORT (cancelled as the application shuts down). Each event names the job ({@code namespace}, the job's name), the run (a UUID derived from Flink's
 * job id) and the datasets the job reads and writes ({@link JobLineage}: Kafka topics namespaced {@code
 * kafka://<first bootstrap server>}, dead-letter topics among the outputs). A transport that cannot deliver an
 * event is logged at WARN, once per run; the job is never held up by lineage.
 *
 * <pre>{@code
 * new OpenLineageEvents(job, "orders-platform", new FileTransport(new FileConfig("/var/log/lineage.jsonl")));
 * }</pre>
 */
public final class OpenLineageEvents implements SmartLifecycle, DisposableBean {

    private static final Logger LOG = LoggerFactory.getLogger(OpenLineageEvents.class);
    private static final URI PRODUCER = URI.create("https://github.com/streamsplit/streamsplit");
    private static final Duration RUNNING_WAIT = Duration.ofMinutes(5);

    private final StreamSplitJob job;
    private final String namespace;
    private final OpenLineageClient client;
    private final OpenLineage openLineage = new OpenLineage(PRODUCER);
    private volatile boolean running;
    private volatile boolean warned;

    public OpenLineageEvents(StreamSplitJob job, String namespace, Transport transport) {
        this.job = job;
        this.namespace = namespace;
        this.client = new OpenLineageClient(transport);
    }

    @Override
    public void start() {
        running = true;
        job.submission().thenAccept(this::follow);
    }

    private void follow(JobClient flink) {
        UUID run = UUID.nameUUIDFromBytes(flink.getJobID().toString().getBytes(StandardCharsets.UTF_8));
        emit(OpenLineage.RunEvent.EventType.START, run);
        CompletableFuture.runAsync(() -> {
            long deadline = System.nanoTime() + RUNNING_WAIT.toNanos();
            while (running && System.nanoTime() < deadline) {
                try {
                    JobStatus status = flink.getJobStatus().get(10, TimeUnit.SECONDS);
                    if (status == JobStatus.RUNNING) {
                        emit(OpenLineage.RunEvent.EventType.RUNNING, run);
                        return;
                    }
                    if (status.isGloballyTerminalState()) {
                        return;
                    }
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    return; // the end event says how it ended
                }
            }
        });
        flink.getJobExecutionResult()
                .whenComplete((result, failure) -> emit(
                        failure == null
                                ? OpenLineage.RunEvent.EventType.COMPLETE
                                : job.isStopping()
                                        ? OpenLineage.RunEvent.EventType.ABORT
                                        : OpenLineage.RunEvent.EventType.FAIL,
                        run));
    }

    private void emit(OpenLineage.RunEvent.EventType type, UUID run) {
        JobLineage lineage = job.lineage();
        List<OpenLineage.InputDataset> inputs = lineage.inputs().stream()
                .map(d -> openLineage
                        .newInputDatasetBuilder()
                        .namespace(d.namespace())
                        .name(d.name())
                        .facets(facets(d))
                        .build())
                .toList();
        List<OpenLineage.OutputDataset> outputs = lineage.outputs().stream()
                .map(d -> openLineage
                        .newOutputDatasetBuilder()
                        .namespace(d.namespace())
                        .name(d.name())
                        .facets(facets(d))
                        .build())
                .toList();
        OpenLineage.RunEvent event = openLineage
                .newRunEventBuilder()
                .eventType(type)
                .eventTime(ZonedDateTime.now())
                .run(openLineage.newRunBuilder().runId(run).build())
                .job(openLineage
                        .newJobBuilder()
                        .namespace(namespace)
                        .name(job.jobName())
                        .build())
                .inputs(inputs)
                .outputs(outputs)
                .build();
        try {
            client.emit(event);
        } catch (RuntimeException e) {
            if (!warned) {
                warned = true;
                LOG.warn(
                        "Could not send the OpenLineage {} event of Flink job '{}': {} (streamsplit.lineage.openlineage.*;"
                                + " further failures at DEBUG)",
                        type,
                        job.jobName(),
                        e.toString());
            } else {
                LOG.debug("Could not send the OpenLineage {} event of Flink job '{}'", type, job.jobName(), e);
            }
        }
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** The dataset's schema facet when its records' fields are known; no facets otherwise. */
    private OpenLineage.DatasetFacets facets(JobLineage.Dataset dataset) {
        OpenLineage.DatasetFacetsBuilder facets = openLineage.newDatasetFacetsBuilder();
        if (!dataset.fields().isEmpty()) {
            facets.schema(openLineage
                    .newSchemaDatasetFacetBuilder()
                    .fields(dataset.fields().stream()
                            .map(field -> openLineage
                                    .newSchemaDatasetFacetFieldsBuilder()
                                    .name(field.name())
                                    .type(field.type())
                                    .build())
                            .toList())
                    .build());
        }
        return facets.build();
    }

    /** Closes the client once the application context is closed (after the job stopped and its end was sent). */
    @Override
    public void destroy() {
        try {
            client.close();
        } catch (Exception e) {
            LOG.debug("Closing the OpenLineage client failed", e);
        }
    }
}
