package io.streamsplit.boot.job;

import io.streamsplit.boot.job.state.StatePlan;
import io.streamsplit.boot.job.state.StatePlanner;
import io.streamsplit.boot.job.step.JobSteps;
import io.streamsplit.pipeline.PipelineContext;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.jspecify.annotations.Nullable;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;

/**
 * Builds the job's {@link StreamGraph} from the {@link StreamSplitPipeline} beans, in {@code @Order}, on a
 * fresh {@link PipelineContext}: a pipeline that fails, or pipelines that add no sink, fail with a
 * message that names the beans. A job that restores a savepoint or checkpoint has its sources checked
 * against the state there first ({@link RestoredSourcesCheck}), then the whole job ({@link StatePlanner}): a start
 * that would drop or break state is refused before anything is submitted.
 */
final class PipelineGraphs {

    private final String jobName;
    private final StreamExecutionEnvironment environment;
    private final Supplier<PipelineContext> contextFactory;
    private final JobSources sources = new JobSources();
    private final JobSteps steps = new JobSteps();
    private final JobLineage lineage = new JobLineage();
    private volatile @Nullable StatePlan statePlan;
    private final boolean planRestores;

    /**
     * @param planRestores whether a build that restores a snapshot makes its state plan here (embedded); on a cluster
     *     the controller makes it, against the state it actually starts from
     */
    PipelineGraphs(
            String jobName,
            StreamExecutionEnvironment environment,
            Supplier<PipelineContext> contextFactory,
            boolean planRestores) {
        this.jobName = jobName;
        this.environment = environment;
        this.contextFactory = contextFactory;
        this.planRestores = planRestores;
    }

    /** The state plan of the graph built last, when it restores a snapshot; {@code null} otherwise. */
    @Nullable
    StatePlan statePlan() {
        return statePlan;
    }

    /** The lineage of the graph built last. */
    JobLineage lineage() {
        return lineage;
    }

    /** The steps of the graph built last. */
    JobSteps steps() {
        return steps;
    }

    /** The StreamSplit sources of the graph built last. */
    JobSources sources() {
        return sources;
    }

    StreamGraph build(Map<String, StreamSplitPipeline> pipelines) {
        List<Map.Entry<String, StreamSplitPipeline>> ordered = new ArrayList<>(pipelines.entrySet());
        ordered.sort((a, b) -> AnnotationAwareOrderComparator.INSTANCE.compare(a.getValue(), b.getValue()));
        PipelineContext context = contextFactory.get();
        for (Map.Entry<String, StreamSplitPipeline> pipeline : ordered) {
            try {
                pipeline.getValue().build(context);
            } catch (Exception e) {
                throw new IllegalStateException(
                        "StreamSplitPipeline bean '" + pipeline.getKey() + "' failed to build the Flink job: "
                                + e.getMessage(),
                        e);
            }
        }
        if (context instanceof DefaultPipelineContext built) {
            built.checkConfiguredSteps();
            steps.record(built.builtSteps());
        }
        sources.record(environment.getTransformations()); // before getStreamGraph() clears them
        lineage.record(environment.getTransformations(), sources.deadLetterDatasets());
        String restoreFrom = environment.getConfiguration().get(StateRecoveryOptions.SAVEPOINT_PATH);
        // the plan hashes a graph of its own: Flink's hasher caches each node's head operator in the graph it
        // hashes, and a cache that travels with the submitted graph carries user classes the cluster cannot load
        StreamGraph probe = restoreFrom != null && planRestores ? environment.getStreamGraph(false) : null;
        StreamGraph graph;
        try {
            graph = environment.getStreamGraph();
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    "The StreamSplitPipeline beans " + pipelines.keySet()
                            + " added no operator with an output to the job; write the streams to a sink"
                            + " (pipeline.sink(name, stream)) or print them.",
                    e);
        }
        graph.setJobName(jobName);
        if (restoreFrom != null) {
            boolean dropAllowed =
                    environment.getConfiguration().get(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE);
            if (context instanceof DefaultPipelineContext built) {
                RestoredSourcesCheck.check(restoreFrom, built.addedSources(), dropAllowed);
            }
            if (probe != null) {
                StatePlan plan = StatePlanner.plan(probe, restoreFrom, restoreFrom);
                if (plan.equals(statePlan)) {
                    plan.require(dropAllowed, jobName); // the same job rebuilt (a replica elected): said once already
                } else {
                    StatePlanner.act(plan, dropAllowed, jobName);
                }
                statePlan = plan;
            }
        } else {
            statePlan = null;
        }
        return graph;
    }
}
