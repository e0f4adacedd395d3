package io.streamsplit.connector.kafka.source;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssignerSupplier;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.types.Either;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;

/**
 * A source added to a job together with its dead-letter stream.
 *
 * <pre>{@code
 * KafkaSourceStream<Order> orders = KafkaSourceStream.of(env, source, watermarks, "orders");
 * orders.records().keyBy(Order::customer) ...;
 * orders.deadLetters().sinkTo(deadLetterSink);   // only with BadRecordPolicy.DEAD_LETTER
 * }</pre>
 *
 * <p>For fail and skip policies this is {@code env.fromSource(...)} and no dead-letter stream.
 * For the dead-letter policy the source emits records and dead letters in one stream, split
 * right after the source (chained, no network hop); watermarks and timestamps follow the
 * records only.
 *
 * @param <T> the element type
 */
@PublicEvolving
public final class KafkaSourceStream<T> {

    private final String name;
    private final SingleOutputStreamOperator<T> records;
    private final @Nullable DataStream<DeadLetterRecord> deadLetters;

    private KafkaSourceStream(
            String name, SingleOutputStreamOperator<T> records, @Nullable DataStream<DeadLetterRecord> deadLetters) {
        this.name = name;
        this.records = records;
        this.deadLetters = deadLetters;
    }

    /** Adds {@code source} to {@code env} under {@code name}, with the uid {@link #defaultUid(String)}. */
    public static <T> KafkaSourceStream<T> of(
            StreamExecutionEnvironment env,
            StreamSplitKafkaSource<T> source,
            WatermarkStrategy<T> watermarkStrategy,
            String name) {
        return of(env, source, watermarkStrategy, name, defaultUid(name));
    }

    /**
     * The uid a source added under {@code name} gets unless told otherwise: {@code <name>-source}.
     * Savepoints keep a source's offsets under its uid.
     */
    public static String defaultUid(String name) {
        return name + "-source";
    }

    /**
     * Adds {@code source} to {@code env} under {@code name}, its operator with {@code uid}: the uid
     * under which savepoints keep its offsets. To take over the offsets of a job's
     * {@code KafkaSource}, give the uid that source had.
     *
     * <pre>{@code
     * KafkaSourceStream<Order> orders = KafkaSourceStream.of(env, source, watermarks, "orders", "kafka-orders");
     * }</pre>
     */
    public static <T> KafkaSourceStream<T> of(
            StreamExecutionEnvironment env,
            StreamSplitKafkaSource<T> source,
            WatermarkStrategy<T> watermarkStrategy,
            String name,
            String uid) {
        if (uid.isBlank()) {
            throw new IllegalArgumentException("Source " + name + ": the operator uid is blank");
        }
        if (source.badRecordPolicy() != BadRecordPolicy.DEAD_LETTER) {
            SingleOutputStreamOperator<T> stream =
                    env.fromSource(source, watermarkStrategy, name).uid(uid);
            return new KafkaSourceStream<>(name, stream, null);
        }
        TypeInformation<T> type = source.getProducedType();
        OutputTag<DeadLetterRecord> tag =
                new OutputTag<>(name + "-dead-letters", TypeInformation.of(DeadLetterRecord.class));
        SingleOutputStreamOperator<T> records = env.fromSource(
                        source.withDeadLetterOutput(), new RecordsOnly<>(watermarkStrategy), name)
                .uid(uid)
                .process(new DeadLetterSplitter<>(tag))
                .returns(type)
                .name("split")
                .uid(name + "-dead-letter-split");
        return new KafkaSourceStream<>(name, records, records.getSideOutput(tag));
    }

    /**
     * Adds {@code source} with its dead letters written to {@code deadLetterTopic} by the operator right
     * after it (chained), with a Kafka producer of its own, flushed at every checkpoint: for where a job
     * cannot have a second sink, e.g. a table source, whose planner keeps only the rows of the query.
     * At-least-once: a record that fails again after a recovery from the last checkpoint is dead-lettered
     * again. A failed write fails the task, so no dead letter is lost.
     *
     * <pre>{@code
     * Properties kafka = new Properties();
     * kafka.setProperty("bootstrap.servers", "localhost:9092");
     * DataStream<Order> orders = KafkaSourceStream.writingDeadLetters(
     *         env, source, watermarks, "orders", "orders-source", "orders.DLT", kafka);
     * }</pre>
     *
     * @param uid the source operator's uid, or {@code null} for none (the writer gets {@code <uid>-dead-letter-writer})
     * @param producerProperties the connection settings (bootstrap servers, security); other clients' settings
     *     in it are left out
     */
    public static <T> SingleOutputStreamOperator<T> writingDeadLetters(
            StreamExecutionEnvironment env,
            StreamSplitKafkaSource<T> source,
            WatermarkStrategy<T> watermarkStrategy,
            String name,
            @Nullable String uid,
            String deadLetterTopic,
            Properties producerProperties) {
        DataStreamSource<Either<DeadLetterRecord, T>> both = env.fromSource(
                source.withDeadLetterOutput(deadLetterTopic), new RecordsOnly<>(watermarkStrategy), name);
        SingleOutputStreamOperator<T> records = both.process(
                        new DeadLetterWriter<T>(source.name(), deadLetterTopic, producerProperties))
                .returns(source.getProducedType())
                .name("dead letters to " + deadLetterTopic);
        if (uid != null) {
            both.uid(uid);
            records.uid(uid + "-dead-letter-writer");
        }
        return records;
    }

    /** The source's elements. */
    public SingleOutputStreamOperator<T> records() {
        return records;
    }

    /** Records the source could not handle; needs {@link BadRecordPolicy#DEAD_LETTER}. */
    public DataStream<DeadLetterRecord> deadLetters() {
        if (deadLetters == null) {
            throw new IllegalStateException("Source " + name + " does not use the dead-letter bad-record policy,"
                    + " so it has no dead-letter stream; set BadRecordPolicy.DEAD_LETTER on the source");
        }
        return deadLetters;
    }

    /** Whether this source has a dead-letter stream. */
    public boolean hasDeadLetters() {
        return deadLetters != null;
    }

    private static final class DeadLetterSplitter<T> extends ProcessFunction<Either<DeadLetterRecord, T>, T> {
        private static final long serialVersionUID = 1L;
        private final OutputTag<DeadLetterRecord> tag;

        DeadLetterSplitter(OutputTag<DeadLetterRecord> tag) {
            this.tag = tag;
        }

        @Override
        public void processElement(Either<DeadLetterRecord, T> value, Context ctx, Collector<T> out) {
            if (value.isRight()) {
                out.collect(value.right());
            } else {
                ctx.output(tag, value.left());
            }
        }
    }

    /**
     * Passes records on and writes dead letters with its own producer; flushes it before every checkpoint
     * (so the dead letters of the records the checkpoint covers are on the broker) and fails the task on a
     * failed write.
     */
    private static final class DeadLetterWriter<T> extends ProcessFunction<Either<DeadLetterRecord, T>, T>
            implements CheckpointedFunction {
        private static final long serialVersionUID = 1L;
        private final String sourceName;
        private final String topic;
        private final Properties producerProperties;

        private transient @Nullable KafkaProducer<byte[], byte[]> producer;
        private transient volatile @Nullable Exception failure;

        DeadLetterWriter(String sourceName, String topic, Properties producerProperties) {
            this.sourceName = sourceName;
            this.topic = topic;
            this.producerProperties = KafkaClientConfigs.deadLetterProducer(producerProperties);
        }

        @Override
        public void open(OpenContext context) {
            producer = new KafkaProducer<>(producerProperties, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public void processElement(Either<DeadLetterRecord, T> value, Context ctx, Collector<T> out) throws Exception {
            if (value.isRight()) {
                out.collect(value.right());
                return;
            }
            checkFailure();
            Objects.requireNonNull(producer, "opened").send(value.left().toProducerRecord(topic), (sent, error) -> {
                if (error != null && failure == null) {
                    failure = error;
                }
            });
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            if (producer != null) {
                producer.flush();
            }
            checkFailure();
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}

        @Override
        public void close() throws Exception {
            if (producer != null) {
                try {
                    producer.flush();
                    checkFailure();
                } finally {
                    producer.close(Duration.ofSeconds(30));
                    producer = null;
                }
            }
        }

        private void checkFailure() throws IOException {
            Exception error = failure;
            if (error != null) {
                throw new IOException(
                        "Source " + sourceName + " could not write a dead letter to topic " + topic + ": "
                                + error.getMessage() + ". The task fails; a restart from the last checkpoint reads"
                                + " the record and writes it again. Check that the topic exists and that the"
                                + " source's Kafka user may write to it.",
                        error);
            }
        }
    }

    /** Applies the user's watermark strategy to records; dead letters keep their Kafka timestamp and move no watermark. */
    private static final class RecordsOnly<T> implements WatermarkStrategy<Either<DeadLetterRecord, T>> {
        private static final long serialVersionUID = 1L;
        private final WatermarkStrategy<T> delegate;

        RecordsOnly(WatermarkStrategy<T> delegate) {
            this.delegate = delegate;
        }

        @Override
        public WatermarkGenerator<Either<DeadLetterRecord, T>> createWatermarkGenerator(
                WatermarkGeneratorSupplier.Context context) {
            WatermarkGenerator<T> generator = delegate.createWatermarkGenerator(context);
            return new WatermarkGenerator<>() {
                @Override
                public void onEvent(Either<DeadLetterRecord, T> event, long timestamp, WatermarkOutput output) {
                    if (event.isRight()) {
                        generator.onEvent(event.right(), timestamp, output);
                    }
                }

                @Override
                public void onPeriodicEmit(WatermarkOutput output) {
                    generator.onPeriodicEmit(output);
                }
            };
        }

        @Override
        public TimestampAssigner<Either<DeadLetterRecord, T>> createTimestampAssigner(
                TimestampAssignerSupplier.Context context) {
            TimestampAssigner<T> assigner = delegate.createTimestampAssigner(context);
            return (event, recordTimestamp) ->
                    event.isRight() ? assigner.extractTimestamp(event.right(), recordTimestamp) : recordTimestamp;
        }

        @Override
        public org.apache.flink.api.common.eventtime.WatermarkAlignmentParams getAlignmentParameters() {
            return delegate.getAlignmentParameters();
        }
    }
}
