package io.streamsplit.connector.kafka.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** What each kind of subscription finds on a cluster, as topics come and go. */
class KafkaSubscriptionTest {

    private final InMemoryKafkaMetadata metadata =
            new InMemoryKafkaMetadata().topic("orders", 2).topic("orders-eu", 1).topic("payments", 1);

    @Test
    void namedTopicsContributeAllTheirPartitionsAndATopicNotThereYetNone() throws Exception {
        KafkaSubscription subscription = KafkaSubscription.topics(List.of("payments", "orders", "refunds"));

        assertThat(subscription.discover(metadata))
                .containsExactlyInAnyOrder(tp("orders", 0), tp("orders", 1), tp("payments", 0));
        assertThat(subscription.topics()).as("sorted, as named").containsExactly("orders", "payments", "refunds");

        metadata.topic("refunds", 1).deleteTopic("payments");
        assertThat(subscription.discover(metadata))
                .containsExactlyInAnyOrder(tp("orders", 0), tp("orders", 1), tp("refunds", 0));
    }

    @Test
    void aPatternMatchesWholeTopicNamesAtEveryDiscovery() throws Exception {
        KafkaSubscription subscription = KafkaSubscription.pattern(Pattern.compile("orders.*"));

        assertThat(subscription.discover(metadata))
                .containsExactlyInAnyOrder(tp("orders", 0), tp("orders", 1), tp("orders-eu", 0));
        assertThat(KafkaSubscription.pattern(Pattern.compile("order")).discover(metadata))
                .as("a prefix is not a whole name")
                .isEmpty();

        metadata.topic("orders-us", 3);
        assertThat(subscription.discover(metadata)).hasSize(6);
        assertThat(subscription.topics()).isEmpty();
        assertThat(subscription.pattern()).hasToString("orders.*");
    }

    @Test
    void namedPartitionsCountOnlyWhileTheyExist() throws Exception {
        KafkaSubscription subscription =
                KafkaSubscription.partitions(Set.of(tp("orders", 1), tp("orders", 5), tp("gone", 0)));

        assertThat(subscription.discover(metadata)).containsExactly(tp("orders", 1));
        assertThat(subscription.topics()).containsExactly("gone", "orders");

        metadata.topic("orders", 6);
        assertThat(subscription.discover(metadata)).containsExactlyInAnyOrder(tp("orders", 1), tp("orders", 5));
    }

    @Test
    void emptyOrBlankSubscriptionsAreRefused() {
        assertThatThrownBy(() -> KafkaSubscription.topics(List.of())).hasMessageContaining("at least one topic name");
        assertThatThrownBy(() -> KafkaSubscription.topics(List.of("orders", " ")))
                .hasMessageContaining("must not be blank");
        assertThatThrownBy(() -> KafkaSubscription.partitions(Set.of())).hasMessageContaining("at least one partition");
    }

    private static TopicPartition tp(String topic, int partition) {
        return new TopicPartition(topic, partition);
    }
}
