package io.streamsplit.benchmarks.kstreams;

import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.streams.RecoveringDeserializationExceptionHandler;
import org.springframework.kafka.support.serializer.JacksonJsonSerde;

/**
 * The benchmarks' jobs as a Spring developer writes them with Kafka Streams: {@code @EnableKafkaStreams},
 * Boot's {@code spring.kafka.streams.*} properties, a {@code KStream} bean per topology, spring-kafka's JSON
 * serde, and bad input dead-lettered the way spring-kafka documents it (a {@link
 * RecoveringDeserializationExceptionHandler} publishing through Boot's {@link KafkaTemplate}).
 *
 * <ul>
 *   <li>{@code bench.topology=transform}: JSON payments → a charge each → JSON, stateless;
 *   <li>{@code bench.topology=totals}: JSON payments → running total per account (a RocksDB store) → JSON,
 *       one output per payment;
 *   <li>{@code bench.topology=windows}: JSON payments keyed by account → one-minute tumbling windows on the
 *       records' timestamps (no grace) → a count and total per account and window, one output per window once
 *       it closes ({@code suppress(untilWindowCloses)}).
 * </ul>
 *
 * <p>The processing guarantee, threads and commit interval are Kafka Streams properties the benchmark
 * passes ({@code spring.kafka.streams.properties.*}).
 */
@SpringBootApplication
@EnableKafkaStreams
public class KafkaStreamsApplication {

    public static void main(String[] args) {
        SpringApplication.run(KafkaStreamsApplication.class, args);
    }

    /** Records the JSON serde cannot read go to {@code bench.dead-letter-topic}, the partition left to Kafka. */
    @Bean
    StreamsBuilderFactoryBeanConfigurer deadLetters(
            KafkaTemplate<Object, Object> template, @Value("${bench.dead-letter-topic}") String deadLetterTopic) {
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(
                template, (ConsumerRecord<?, ?> record, Exception e) -> new TopicPartition(deadLetterTopic, -1));
        return factoryBean -> {
            var config = factoryBean.getStreamsConfiguration();
            config.put(
                    StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                    RecoveringDeserializationExceptionHandler.class);
            config.put(RecoveringDeserializationExceptionHandler.KSTREAM_DESERIALIZATION_RECOVERER, recoverer);
            factoryBean.setStreamsConfiguration(config);
        };
    }

    @Bean
    @ConditionalOnProperty(name = "bench.topology", havingValue = "transform")
    KStream<byte[], Payment> transform(
            StreamsBuilder builder, @Value("${bench.input}") String input, @Value("${bench.output}") String output) {
        KStream<byte[], Payment> payments =
                builder.stream(input, Consumed.with(Serdes.ByteArray(), new JacksonJsonSerde<>(Payment.class)));
        payments.mapValues(Charge::of)
                .to(output, Produced.with(Serdes.ByteArray(), new JacksonJsonSerde<>(Charge.class).noTypeInfo()));
        return payments;
    }

    @Bean
    @ConditionalOnProperty(name = "bench.topology", havingValue = "totals")
    KStream<byte[], Payment> totals(
            StreamsBuilder builder, @Value("${bench.input}") String input, @Value("${bench.output}") String output) {
        JacksonJsonSerde<Payment> paymentSerde = new JacksonJsonSerde<>(Payment.class);
        JacksonJsonSerde<Total> totalSerde = new JacksonJsonSerde<>(Total.class).noTypeInfo();
        KStream<byte[], Payment> payments = builder.stream(input, Consumed.with(Serdes.ByteArray(), paymentSerde));
        payments.groupBy((key, payment) -> payment.account(), Grouped.with(Serdes.String(), paymentSerde))
                .aggregate(
                        () -> new Total("", 0, -1),
                        (account, payment, total) -> new Total(account, total.total() + payment.amount(), payment.id()),
                        Materialized.<String, Total, KeyValueStore<Bytes, byte[]>>as("totals")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(totalSerde))
                .toStream()
                .to(output, Produced.with(Serdes.String(), totalSerde));
        return payments;
    }

    @Bean
    @ConditionalOnProperty(name = "bench.topology", havingValue = "windows")
    KStream<String, Payment> windows(
            StreamsBuilder builder, @Value("${bench.input}") String input, @Value("${bench.output}") String output) {
        JacksonJsonSerde<Payment> paymentSerde = new JacksonJsonSerde<>(Payment.class);
        JacksonJsonSerde<WindowTotal> totalSerde = new JacksonJsonSerde<>(WindowTotal.class).noTypeInfo();
        KStream<String, Payment> payments = builder.stream(input, Consumed.with(Serdes.String(), paymentSerde));
        payments.groupByKey(Grouped.with(Serdes.String(), paymentSerde))
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMinutes(1)))
                .aggregate(
                        () -> new WindowTotal("", 0, 0, 0),
                        (account, payment, sofar) -> sofar.add(account, payment),
                        Materialized.<String, WindowTotal, WindowStore<Bytes, byte[]>>as("window-totals")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(totalSerde))
                .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                .toStream()
                .map((window, sofar) -> KeyValue.pair(
                        window.key(),
                        new WindowTotal(window.key(), window.window().start(), sofar.count(), sofar.total())))
                .to(output, Produced.with(Serdes.String(), totalSerde));
        return payments;
    }
}
