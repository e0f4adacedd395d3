/**
 * The types job code sees: a {@code StreamSplitPipeline} builds the job from the sources and sinks named in
 * {@code application.yml} through a {@code PipelineContext}. No Spring: these travel to Flink clusters.
 */
@NullMarked
package io.streamsplit.pipeline;

import org.jspecify.annotations.NullMarked;
