package io.streamsplit.boot.job.takeover;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The keyed operator both the hand-written job and the StreamSplit application run (uid {@code counts}):
 * counts the ids of each of ten keys in keyed state and writes {@code id,key,count}.
 */
public final class IdCounts extends KeyedProcessFunction<String, String, String> {

    public static final int KEYS = 10;

    private transient ValueState<Long> count;

    /** The key of an id: {@code k0} .. {@code k9}. */
    public static String key(String id) {
        return "k" + Integer.parseInt(id) % KEYS;
    }

    @Override
    public void open(OpenContext openContext) {
        count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
    }

    @Override
    public void processElement(String id, Context ctx, Collector<String> out) throws Exception {
        long next = (count.value() == null ? 0 : count.value()) + 1;
        count.update(next);
        out.collect(id + "," + ctx.getCurrentKey() + "," + next);
    }
}
