package io.streamsplit.embedded.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Three KRaft nodes in their own JVMs, replicated as production is: a partition's leader killed with
 * {@code kill -9} hands over to an in-sync replica, writes with {@code acks=all} go on with one node down, the
 * node comes back into sync, and the active controller can be found and killed like any node.
 */
class ReplicatedKafkaClusterIT {

    @Test
    void aKilledLeaderHandsOverAndItsNodeComesBackIntoSync() throws Exception {
        try (ReplicatedKafkaCluster kafka =
                ReplicatedKafkaCluster.builder().build().start()) {
            kafka.createTopic("replicated", 2);
            assertThat(kafka.inSyncReplicas("replicated", 0)).containsExactlyInAnyOrder(1, 2, 3);
            send(kafka, "before", 100);

            int leader = kafka.leader("replicated", 0);
            kafka.kill(leader);

            assertThat(kafka.isRunning(leader)).isFalse();
            send(kafka, "while-down", 100); // min.insync.replicas 2 of 3: writes go on
            assertThat(kafka.leader("replicated", 0)).isNotIn(leader, -1);
            assertThat(kafka.inSyncReplicas("replicated", 0)).doesNotContain(leader);

            kafka.start(leader);
            kafka.awaitInSync("replicated");
            assertThat(kafka.inSyncReplicas("replicated", 0)).contains(leader);

            int controller = kafka.activeController();
            kafka.kill(controller);
            send(kafka, "no-controller-yet", 100);
            assertThat(kafka.activeController()).isNotEqualTo(controller);
            kafka.start(controller);
            kafka.awaitInSync("replicated");

            assertThat(readAll(kafka)).hasSize(300);
            assertThatThrownBy(() -> kafka.kill(4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("No Kafka node 4");
        }
    }

    private static void send(ReplicatedKafkaCluster kafka, String prefix, int count) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>("replicated", i % 2, null, prefix + "-" + i));
            }
            producer.flush();
        }
    }

    private static List<String> readAll(ReplicatedKafkaCluster kafka) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions =
                    List.of(new TopicPartition("replicated", 0), new TopicPartition("replicated", 1));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<String> values = new java.util.ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            return values;
        }
    }
}
