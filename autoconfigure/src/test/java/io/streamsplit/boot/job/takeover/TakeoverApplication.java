package io.streamsplit.boot.job.takeover;

import io.streamsplit.pipeline.StreamSplitPipeline;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** The StreamSplit application that takes over the hand-written job: the same keyed operator, uid and all. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class TakeoverApplication {

    @Bean
    StreamSplitPipeline idCounts() {
        return pipeline -> pipeline.sink(
                "counts",
                pipeline.<String>source("ids")
                        .keyBy(IdCounts::key)
                        .process(new IdCounts())
                        .uid("counts"));
    }
}
