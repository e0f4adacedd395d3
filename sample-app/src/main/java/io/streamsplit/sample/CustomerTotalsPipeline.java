package io.streamsplit.sample;

import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import io.streamsplit.pipeline.StreamSplitPipeline;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The pipeline and the one bean application.yml names: orders (a record emitter, the extension
 * point for a record that holds several elements) and refunds (format json, no code) → per-customer
 * totals in tumbling event-time windows → topic customer-totals (format json, keyed by customer).
 */
@Configuration(proxyBeanMethods = false)
public class CustomerTotalsPipeline {

    @Bean
    KafkaRecordEmitter<Order> orderBatchEmitter() {
        return new OrderBatchEmitter();
    }

    @Bean
    StreamSplitPipeline customerTotals(@Value("${sample.window:5s}") Duration window) {
        return pipeline -> {
            DataStream<Order> orders = pipeline.source("orders");
            DataStream<Order> refunds =
                    pipeline.<Refund>source("refunds").map(Refund::asOrder).name("refund as order");
            DataStream<CustomerTotal> totals = orders.union(refunds)
                    .keyBy(new ByCustomer())
                    .window(TumblingEventTimeWindows.of(window))
                    .aggregate(new SumAmounts(), new WithWindow())
                    .name("customer totals")
                    .uid("customer-totals");
            pipeline.sink("totals", totals);
        };
    }

    static final class ByCustomer implements KeySelector<Order, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(Order order) {
            return order.customer;
        }
    }

    /** Accumulator {@code [count, sumCents]}. */
    static final class SumAmounts implements AggregateFunction<Order, long[], long[]> {
        private static final long serialVersionUID = 1L;

        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Order order, long[] acc) {
            acc[0]++;
            acc[1] += order.amountCents;
            return acc;
        }

        @Override
        public long[] getResult(long[] acc) {
            return acc;
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0], a[1] + b[1]};
        }
    }

    static final class WithWindow extends ProcessWindowFunction<long[], CustomerTotal, String, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(String customer, Context context, Iterable<long[]> sums, Collector<CustomerTotal> out) {
            long[] sum = sums.iterator().next();
            out.collect(new CustomerTotal(
                    customer,
                    Instant.ofEpochMilli(context.window().getStart()),
                    Instant.ofEpochMilli(context.window().getEnd()),
                    sum[0],
                    sum[1]));
        }
    }
}
