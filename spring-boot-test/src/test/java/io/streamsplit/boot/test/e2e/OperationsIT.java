package io.streamsplit.boot.test.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.streamsplit.boot.autoconfigure.WordsApplication;
import io.streamsplit.boot.test.PipelineTester;
import io.streamsplit.boot.test.ReceivedRecord;
import io.streamsplit.boot.test.StreamSplitTest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Stopping the job from {@code /actuator/streamsplit} takes a savepoint and says where; health says
 * STOPPED (out of service), not DOWN; starting it again resumes from that savepoint, so under
 * exactly-once every record reaches the output once — the ones sent while it was stopped included —
 * and a rescale (savepoint, start at the new parallelism) keeps that, with the splits redistributed. No
 * savepoint directory is set: savepoints go beside the checkpoints (the test context's own directory).
 */
@StreamSplitTest(
        classes = WordsApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.application.name=operated",
            "streamsplit.kafka.sources.words.topics=ops-in",
            "streamsplit.kafka.sources.words.group-id=operated",
            "streamsplit.kafka.sources.words.deserializer=wordDeserializer",
            "streamsplit.kafka.sources.words.max-records-per-second=5000",
            "streamsplit.kafka.sinks.upper.topic=ops-out",
            "streamsplit.kafka.sinks.upper.serializer=utf8",
            "streamsplit.kafka.sinks.upper.delivery-guarantee=exactly-once",
            "management.endpoints.web.exposure.include=health,streamsplit",
            "management.endpoint.health.show-details=always"
        })
@ExtendWith(OutputCaptureExtension.class)
class OperationsIT {

    private static final Logger LOG = LoggerFactory.getLogger(OperationsIT.class);

    @Autowired
    PipelineTester pipeline;

    @LocalServerPort
    int port;

    @Test
    void stopTakesASavepointAndStartResumesFromItWithEveryRecordOnce() throws Exception {
        List<String> before = words("before", 50);
        before.forEach(word -> pipeline.send("ops-in", null, word));
        pipeline.awaitRecords("ops-out", 50);
        String running = get("/actuator/streamsplit").body();
        assertThat(running)
                .contains("\"job\":\"operated\"", "\"state\":\"RUNNING\"", "\"parallelism\":2")
                .contains("\"sinks\":{\"upper\":{\"topic\":\"ops-out\",\"deliveryGuarantee\":\"EXACTLY_ONCE\","
                        + "\"freshness\":{\"count\":50,\"p50Ms\":")
                .contains("\"sources\":{\"words\":{")
                .contains("\"maxRecordsPerSecond\":5000.0");

        LOG.info("GET /actuator/streamsplit: {}", running);
        long stopAt = System.nanoTime();
        HttpResponse<String> stop = post("{\"operation\":\"stop\"}");
        long stopMillis = (System.nanoTime() - stopAt) / 1_000_000;
        assertThat(stop.statusCode()).as(stop.body()).isEqualTo(200);
        LOG.info("POST stop: {}", stop.body());
        String savepoint = stop.body().replaceAll(".*\"savepoint\":\"([^\"]+)\".*", "$1");
        assertThat(Path.of(URI.create(savepoint))).as("the savepoint on disk").isDirectory();

        assertThat(get("/actuator/streamsplit").body()).contains("\"state\":\"STOPPED\"", savepoint);
        HttpResponse<String> health = get("/actuator/health/streamsplit");
        LOG.info("GET /actuator/health/streamsplit while stopped: {}", health.body());
        assertThat(health.statusCode()).isEqualTo(503);
        assertThat(health.body()).contains("\"status\":\"OUT_OF_SERVICE\"", "\"STOPPED\"", savepoint);
        HttpResponse<String> again = post("{\"operation\":\"stop\"}");
        assertThat(again.statusCode()).as("stopping twice").isEqualTo(400);
        assertThat(again.body())
                .contains(
                        "\"operation\":\"stop\"",
                        "\"status\":400",
                        "\"reason\":\"Cannot stop: the job is already stopped");

        List<String> whileStopped = words("stopped", 50);
        whileStopped.forEach(word -> pipeline.send("ops-in", null, word));

        long startAt = System.nanoTime();
        HttpResponse<String> start = post("{\"operation\":\"start\"}");
        assertThat(start.statusCode()).as(start.body()).isEqualTo(200);
        LOG.info("POST start: {}", start.body());
        pipeline.awaitRecords("ops-out", 1, r -> r.value().startsWith("STOPPED"));
        long firstRecordMillis = (System.nanoTime() - startAt) / 1_000_000;
        pipeline.awaitJobRunning();
        assertThat(get("/actuator/streamsplit").body()).contains("\"state\":\"RUNNING\"");

        List<String> after = words("after", 50);
        after.forEach(word -> pipeline.send("ops-in", null, word));
        pipeline.awaitRecords("ops-out", 150);

        long rescaleAt = System.nanoTime();
        HttpResponse<String> rescale = post("{\"operation\":\"rescale\",\"parallelism\":1}");
        assertThat(rescale.statusCode()).as(rescale.body()).isEqualTo(200);
        LOG.info("POST rescale: {}", rescale.body());
        pipeline.awaitJobRunning();
        long rescaleMillis = (System.nanoTime() - rescaleAt) / 1_000_000;
        assertThat(get("/actuator/streamsplit").body()).contains("\"state\":\"RUNNING\"", "\"parallelism\":1");
        // one reader now owns both partitions
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(pipeline.splits("words").splits())
                        .extracting(split -> split.readerSubtask())
                        .containsOnly(0)
                        .hasSize(2));
        List<String> rescaled = words("rescaled", 50);
        rescaled.forEach(word -> pipeline.send("ops-in", null, word));
        pipeline.awaitRecords("ops-out", 200);
        pipeline.awaitCheckpoint(); // anything replayed would be committed by now
        List<String> out =
                pipeline.read("ops-out").stream().map(ReceivedRecord::value).toList();
        assertThat(out)
                .hasSize(200)
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 4)
                        .boxed()
                        .flatMap(i -> List.of(before, whileStopped, after, rescaled).get(i).stream())
                        .map(String::toUpperCase)
                        .toList());
        LOG.info(
                "stop → savepoint path: {} ms; start → first record of the stopped time (read_committed): {} ms;"
                        + " rescale 2 → 1 → all tasks running: {} ms",
                stopMillis,
                firstRecordMillis,
                rescaleMillis);
    }

    /** The embedded cluster cannot grow: a rescale beyond its slots is refused while the job runs on. */
    @Test
    void aRescaleBeyondTheSlotsIsRefusedBeforeTheJobStops() throws Exception {
        HttpResponse<String> response = post("{\"operation\":\"rescale\",\"parallelism\":8}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains("parallelism 8 needs 8 task slots and the embedded cluster has 2")
                .contains("streamsplit.flink.embedded.task-slots=8");
        assertThat(get("/actuator/streamsplit").body()).contains("\"state\":\"RUNNING\"");
    }

    /** A refusal says what was refused and why, in the body (not Spring's generic error) and in the log. */
    @Test
    void anUnknownOperationIsABadRequestThatSaysWhy(CapturedOutput log) throws Exception {
        HttpResponse<String> response = post("{\"operation\":\"pause-everything\"}");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains(
                        "\"operation\":\"pause-everything\"",
                        "\"error\":\"Bad Request\"",
                        "Unknown operation 'pause-everything': use stop, start, rescale, pause, resume or throttle");
        HttpResponse<String> none = post("{}");
        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(none.body()).contains("No operation", "{\\\"operation\\\":\\\"stop\\\"}");
        assertThat(log.getOut())
                .contains("Refused operation 'pause-everything' on Flink job 'operated' from the streamsplit endpoint:"
                        + " Unknown operation");
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
