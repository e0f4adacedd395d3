package io.streamsplit.connector.kafka.sink;

import java.io.IOException;
import java.util.Collection;
import java.util.Properties;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Flink's official exactly-once {@link KafkaSink}, unchanged, except that its committer first asks
 * Kafka whether a transaction restored from a checkpoint was already committed (see
 * {@code RestoredTransactionsCommitter}): after a restart the log then says what happened, instead of
 * an ERROR that signals data loss where there is none; and that its writer's checkpoint flush also
 * completes on kafka-clients 4.3 and later, which removed a producer internal the official flush calls
 * (see {@code FlushCompletingWriter}; {@link ExactlyOnceKafkaClients} lists the lines it is tested on).
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.sink.RestoredTransactionsKafkaSink;
 *
 * stream.sinkTo(RestoredTransactionsKafkaSink.of(kafkaSink, producerProperties, "kafka:9092"));
 * }</pre>
 *
 * @param <IN> the sink's elements
 */
@PublicEvolving
public final class RestoredTransactionsKafkaSink<IN>
        implements TwoPhaseCommittingStatefulSink<IN, KafkaWriterState, KafkaCommittable>,
                SupportsPostCommitTopology<KafkaCommittable>,
                LineageVertexProvider {

    private static final long serialVersionUID = 1L;

    private final KafkaSink<IN> official;
    private final Properties producerProperties;

    private RestoredTransactionsKafkaSink(KafkaSink<IN> official, Properties producerProperties) {
        this.official = official;
        this.producerProperties = producerProperties;
    }

    /**
     * {@code official}, an exactly-once {@link KafkaSink}, whose restored transactions are checked with
     * an Admin client of {@code producerProperties} (its security settings) at {@code bootstrapServers}.
     */
    public static <IN> RestoredTransactionsKafkaSink<IN> of(
            KafkaSink<IN> official, Properties producerProperties, String bootstrapServers) {
        Properties copy = new Properties();
        copy.putAll(producerProperties);
        copy.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return new RestoredTransactionsKafkaSink<>(official, copy);
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return new RestoredTransactionsCommitter(official.createCommitter(context), producerProperties);
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return official.getCommittableSerializer();
    }

    @Override
    public PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> createWriter(
            WriterInitContext context) throws IOException {
        return new FlushCompletingWriter<>(official.createWriter(context));
    }

    @Override
    public PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) throws IOException {
        return new FlushCompletingWriter<>(official.restoreWriter(context, recoveredState));
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return official.getWriterStateSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<KafkaCommittable>> committables) {
        official.addPostCommitTopology(committables);
    }

    @Override
    public LineageVertex getLineageVertex() {
        return official.getLineageVertex();
    }
}
