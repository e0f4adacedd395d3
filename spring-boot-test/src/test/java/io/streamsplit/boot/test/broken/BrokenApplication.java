package io.streamsplit.boot.test.broken;

import io.streamsplit.boot.test.app.Word;
import io.streamsplit.pipeline.StreamSplitPipeline;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** An application whose job can never run: its operator fails to open, on every restart. */
@SpringBootApplication
public class BrokenApplication {

    @Bean
    StreamSplitPipeline needsAPriceList() {
        return pipeline -> pipeline.sink(
                "upper",
                pipeline.<Word>source("words").map(new NeedsPriceList()).name("price words"));
    }

    static final class NeedsPriceList extends RichMapFunction<Word, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public void open(OpenContext context) {
            throw new IllegalStateException("the price list service at http://prices.invalid is not reachable");
        }

        @Override
        public String map(Word word) {
            return word.text();
        }
    }
}
