package io.streamsplit.boot.test.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.WordsApplication;
import io.streamsplit.boot.test.PipelineTester;
import io.streamsplit.boot.test.ReceivedRecord;
import io.streamsplit.boot.test.StreamSplitTest;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Pausing a source from {@code /actuator/streamsplit} (through {@code streamsplit.kafka.control-topic})
 * stops its reading while checkpoints go on and lag grows where operators look (split state,
 * meters); resuming continues from the same offsets, and under exactly-once the read_committed
 * output holds every record once. A rate set from the endpoint applies without a restart.
 */
@StreamSplitTest(
        classes = WordsApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.application.name=paused",
            "streamsplit.kafka.control-topic=paused-app-control",
            "streamsplit.kafka.sources.words.topics=pause-in",
            "streamsplit.kafka.sources.words.group-id=paused",
            "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
            "streamsplit.kafka.sinks.upper.topic=pause-out",
            "streamsplit.kafka.sinks.upper.serializer=utf8",
            "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once",
            "management.endpoints.web.exposure.include=health,streamsplit,metrics",
            "management.endpoint.health.show-details=always"
        })
class PauseResumeIT {

    private static final Logger LOG = LoggerFactory.getLogger(PauseResumeIT.class);
    private static final int RATE = 50; // records per second sent while paused
    private static final int PAUSE_SECONDS = 10;

    @Autowired
    PipelineTester pipeline;

    @LocalServerPort
    int port;

    @Test
    void aPausedSourceKeepsItsOffsetsAndResumesWithEveryRecordOnce() throws Exception {
        List<String> before = words("before", 50);
        before.forEach(word -> pipeline.send("pause-in", null, word));
        pipeline.awaitRecords("pause-out", 50);

        HttpResponse<String> pause = post("{\"operation\":\"pause\",\"source\":\"words\"}");
        LOG.info("POST pause: {}", pause.body());
        assertThat(pause.statusCode()).as(pause.body()).isEqualTo(200);
        assertThat(pause.body()).contains("\"applied\":true", "\"state\":\"PAUSED\"");
        assertThat(pipeline.splits("words").state()).isEqualTo("PAUSED");
        HttpResponse<String> health = get("/actuator/health/streamsplit");
        LOG.info("GET /actuator/health/streamsplit while paused: {}", health.body());
        assertThat(health.statusCode())
                .as("paused is an operator's choice, not DOWN")
                .isEqualTo(200);
        assertThat(health.body()).contains("\"status\":\"UP\"", "\"state\":\"PAUSED\"");

        // a fixed input rate for the whole pause; lag sampled once a second
        List<String> whilePaused = words("paused", RATE * PAUSE_SECONDS);
        List<Long> lagWhilePaused = new CopyOnWriteArrayList<>();
        AtomicInteger sent = new AtomicInteger();
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
        try {
            timer.scheduleAtFixedRate(
                    () -> {
                        int i = sent.getAndIncrement();
                        if (i < whilePaused.size()) {
                            pipeline.send("pause-in", null, whilePaused.get(i));
                        }
                    },
                    0,
                    1000 / RATE,
                    TimeUnit.MILLISECONDS);
            timer.scheduleAtFixedRate(
                    () -> lagWhilePaused.add(pipeline.splits("words").lag()), 1, 1, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(PAUSE_SECONDS * 3)).until(() -> sent.get() >= whilePaused.size());
            long checkpoint = pipeline.awaitCheckpoint();
            LOG.info("checkpoint {} completed while paused", checkpoint);
        } finally {
            timer.shutdownNow();
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> pipeline.splits("words").lag() == whilePaused.size());
        assertThat(pipeline.read("pause-out")).as("nothing read while paused").hasSize(50);
        assertThat(lagWhilePaused)
                .as("lag grows while paused")
                .isSorted()
                .last()
                .isNotEqualTo(0L);
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(get("/actuator/metrics/streamsplit.kafka.source.lag")
                                .body())
                        .contains("{\"statistic\":\"VALUE\",\"value\":" + (double) whilePaused.size() + "}"));
        assertThat(get("/actuator/metrics/streamsplit.kafka.source.paused").body())
                .contains("{\"statistic\":\"VALUE\",\"value\":1.0}");

        long resumeAt = System.nanoTime();
        HttpResponse<String> resume = post("{\"operation\":\"resume\",\"source\":\"words\"}");
        LOG.info("POST resume: {}", resume.body());
        assertThat(resume.statusCode()).as(resume.body()).isEqualTo(200);
        assertThat(resume.body()).contains("\"applied\":true", "\"state\":\"RUNNING\"");
        List<Long> lagAfterResume = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    long lag = pipeline.splits("words").lag();
                    lagAfterResume.add(lag);
                    return lag == 0;
                });
        long drainedMillis = (System.nanoTime() - resumeAt) / 1_000_000;
        pipeline.awaitRecords("pause-out", 50 + whilePaused.size());
        long committedMillis = (System.nanoTime() - resumeAt) / 1_000_000;

        HttpResponse<String> throttle =
                post("{\"operation\":\"throttle\",\"source\":\"words\",\"maxRecordsPerSecond\":20}");
        LOG.info("POST throttle: {}", throttle.body());
        assertThat(throttle.body()).contains("\"applied\":true", "\"maxRecordsPerSecond\":20.0");
        assertThat(get("/actuator/streamsplit").body()).contains("\"maxRecordsPerSecond\":20.0");
        List<String> throttled = words("throttled", 60);
        long throttledAt = System.nanoTime();
        throttled.forEach(word -> pipeline.send("pause-in", null, word));
        int total = 50 + whilePaused.size() + throttled.size();
        pipeline.awaitRecords("pause-out", total);
        long throttledMillis = (System.nanoTime() - throttledAt) / 1_000_000;
        assertThat(throttledMillis)
                .as("60 records at 20/s take about 3 s (unthrottled: well under one)")
                .isGreaterThan(2_000);
        HttpResponse<String> configured = post("{\"operation\":\"throttle\",\"source\":\"words\"}");
        assertThat(configured.body()).as("back to the configured rate").contains("\"unthrottled\"");

        pipeline.awaitCheckpoint();
        List<String> out =
                pipeline.read("pause-out").stream().map(ReceivedRecord::value).toList();
        assertThat(out)
                .hasSize(total)
                .containsExactlyInAnyOrderElementsOf(Stream.of(before, whilePaused, throttled)
                        .flatMap(List::stream)
                        .map(String::toUpperCase)
                        .toList());
        LOG.info(
                "pause of {} s at {} records/s: lag each second {}; after resume: lag 0 in {} ms (samples {}),"
                        + " all committed (read_committed) in {} ms; 60 records at 20/s took {} ms",
                PAUSE_SECONDS,
                RATE,
                lagWhilePaused,
                drainedMillis,
                lagAfterResume,
                committedMillis,
                throttledMillis);
    }

    @Test
    void commandsForAnUnknownSourceOrWithoutASourceAreBadRequests() throws Exception {
        HttpResponse<String> unknown = post("{\"operation\":\"pause\",\"source\":\"wrods\"}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        HttpResponse<String> missing = post("{\"operation\":\"resume\"}");
        assertThat(missing.statusCode()).isEqualTo(400);
        HttpResponse<String> negative =
                post("{\"operation\":\"throttle\",\"source\":\"words\",\"maxRecordsPerSecond\":-5}");
        assertThat(negative.statusCode()).isEqualTo(400);
    }

    private static List<String> words(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).toList();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return new ActuatorHttp(port).get(path);
    }

    private HttpResponse<String> post(String json) throws IOException, InterruptedException {
        return new ActuatorHttp(port).operate(json);
    }
}
