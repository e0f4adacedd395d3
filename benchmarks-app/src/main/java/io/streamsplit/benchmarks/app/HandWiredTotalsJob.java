package io.streamsplit.benchmarks.app;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import tools.jackson.databind.json.JsonMapper;

/**
 * The running-totals pipeline wired by hand as a plain Flink job, what the starter's profile {@code totals}
 * is measured against ({@code TotalsBenchmark}): Flink's official {@code KafkaSource} and an exactly-once
 * {@code KafkaSink}, JSON with Jackson 3 as the starter's {@code format: json} uses it, Flink's defaults
 * elsewhere. Run with the extracted app jar on the class path (a local execution environment):
 *
 * <pre>
 * java -cp app.jar io.streamsplit.benchmarks.app.HandWiredTotalsJob --bootstrap-servers localhost:9092 \
 *     --input in --output out --group-id g --checkpoint-interval-ms 1000 --parallelism 1
 * </pre>
 *
 * <p>With {@code --remote host:port --jars a.jar,b.jar} it is submitted to that Flink cluster instead, with
 * the jars it needs (this one, the connector, Kafka's client, Jackson), as {@code flink run} would submit a
 * user's job jar; {@code --config key=value,key=value} adds Flink settings to the job (e.g. a restart
 * strategy; none by default: the cluster's, i.e. Flink's, defaults apply).
 */
public final class HandWiredTotalsJob {

    private HandWiredTotalsJob() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String bootstrap = options.get("bootstrap-servers");
        StreamExecutionEnvironment env = environment(options);
        env.setParallelism(Integer.parseInt(options.getOrDefault("parallelism", "1")));
        env.enableCheckpointing(
                Long.parseLong(options.getOrDefault("checkpoint-interval-ms", "10000")),
                CheckpointingMode.EXACTLY_ONCE);
        KafkaSource<Payment> source = KafkaSource.<Payment>builder()
                .setBootstrapServers(bootstrap)
                .setTopics(options.get("input"))
                .setGroupId(options.get("group-id"))
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setValueOnlyDeserializer(new PaymentJson())
                .build();
        KafkaSink<Total> sink = KafkaSink.<Total>builder()
                .setBootstrapServers(bootstrap)
                .setRecordSerializer(KafkaRecordSerializationSchema.<Total>builder()
                        .setTopic(options.get("output"))
                        .setKeySerializationSchema(new AccountKey())
                        .setValueSerializationSchema(new TotalJson())
                        .build())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix("hand-wired-" + options.get("group-id"))
                // the sink's default (1 h) is above the broker's transaction.max.timeout.ms (15 min)
                .setProperty("transaction.timeout.ms", "600000")
                .build();
        RunningTotals.of(env.fromSource(source, WatermarkStrategy.noWatermarks(), "in"))
                .sinkTo(sink)
                .name("out");
        env.execute("hand-wired totals");
    }

    private static StreamExecutionEnvironment environment(Map<String, String> options) {
        Map<String, String> settings = new HashMap<>();
        for (String setting : options.getOrDefault("config", "").split(",")) {
            if (!setting.isBlank()) {
                String[] keyValue = setting.split("=", 2);
                settings.put(keyValue[0].trim(), keyValue[1].trim());
            }
        }
        Configuration config = Configuration.fromMap(settings);
        String remote = options.get("remote");
        if (remote == null) {
            return StreamExecutionEnvironment.getExecutionEnvironment(config);
        }
        String[] hostPort = remote.split(":");
        return StreamExecutionEnvironment.createRemoteEnvironment(
                hostPort[0],
                Integer.parseInt(hostPort[1]),
                config,
                options.getOrDefault("jars", "").split(","));
    }

    static final class PaymentJson implements DeserializationSchema<Payment> {
        private static final long serialVersionUID = 1L;
        private transient JsonMapper mapper;

        @Override
        public void open(InitializationContext context) {
            mapper = JsonMapper.builder().build();
        }

        @Override
        public Payment deserialize(byte[] message) {
            return mapper.readValue(message, Payment.class);
        }

        @Override
        public boolean isEndOfStream(Payment next) {
            return false;
        }

        @Override
        public TypeInformation<Payment> getProducedType() {
            return TypeInformation.of(Payment.class);
        }
    }

    static final class TotalJson implements SerializationSchema<Total> {
        private static final long serialVersionUID = 1L;
        private transient JsonMapper mapper;

        @Override
        public void open(InitializationContext context) {
            mapper = JsonMapper.builder().build();
        }

        @Override
        public byte[] serialize(Total total) {
            return mapper.writeValueAsBytes(total);
        }
    }

    static final class AccountKey implements SerializationSchema<Total> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(Total total) {
            return total.account().getBytes(StandardCharsets.UTF_8);
        }
    }
}
