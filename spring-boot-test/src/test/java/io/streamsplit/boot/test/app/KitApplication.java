package io.streamsplit.boot.test.app;

import io.streamsplit.pipeline.StreamSplitPipeline;
import java.time.Duration;
import java.util.Locale;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The application the kit's tests drive: words (JSON) → upper case → topic {@code upper}
 * (exactly-once), and clicks → count per key and 10-second event-time window → topic
 * {@code click-counts} (exactly-once). Configured in {@code application-kit.yml} (profile {@code kit}).
 */
@SpringBootApplication
public class KitApplication {

    @Bean
    StreamSplitPipeline uppercase() {
        return pipeline -> pipeline.sink(
                "upper", pipeline.<Word>source("words").map(new Upper()).name("uppercase"));
    }

    @Bean
    StreamSplitPipeline clickCounts() {
        return pipeline -> pipeline.sink(
                "click-counts",
                pipeline.<String>source("clicks")
                        .keyBy(new Itself())
                        .window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                        .process(new CountPerWindow())
                        .name("clicks per window"));
    }

    static final class Upper implements MapFunction<Word, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String map(Word word) {
            return word.text().toUpperCase(Locale.ROOT);
        }
    }

    static final class Itself implements KeySelector<String, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(String value) {
            return value;
        }
    }

    /** Emits {@code <key>@<window start ms>=<count>}. */
    static final class CountPerWindow extends ProcessWindowFunction<String, String, String, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(String key, Context context, Iterable<String> clicks, Collector<String> out) {
            long count = 0;
            for (String ignored : clicks) {
                count++;
            }
            out.collect(key + "@" + context.window().getStart() + "=" + count);
        }
    }
}
