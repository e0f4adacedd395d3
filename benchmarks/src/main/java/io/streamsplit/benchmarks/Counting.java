package io.streamsplit.benchmarks;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/** Counts records in an accumulator, so every run proves it read everything. */
public final class Counting extends RichMapFunction<Object, Object> {
    private static final long serialVersionUID = 1L;
    public static final String NAME = "records";
    private transient LongCounter counter;
    private transient boolean seen;

    @Override
    public void open(OpenContext openContext) {
        counter = new LongCounter();
        getRuntimeContext().addAccumulator(NAME, counter);
    }

    @Override
    public Object map(Object value) {
        counter.add(1L);
        if (!seen) {
            seen = true;
            ReadClock.firstRecord();
        }
        return value;
    }

    @Override
    public void close() {
        ReadClock.end(); // the source reached its stopping offsets (or the job ended)
    }
}
