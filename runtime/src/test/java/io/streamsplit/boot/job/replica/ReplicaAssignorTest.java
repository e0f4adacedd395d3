package io.streamsplit.boot.job.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Who runs the job among the replicas: the active one keeps it while it stays in the group (a replica that joins
 * never takes it); when it leaves, the newest member gets it — in a rolling update, an instance of the new
 * version — and every member hears who is active.
 */
class ReplicaAssignorTest {

    private static final String TOPIC = "streamsplit-replicas";
    private static final TopicPartition JOB = new TopicPartition(TOPIC, 0);

    private final Map<String, Subscription> members = new HashMap<>();

    @Test
    void theFirstElectionGoesToTheNewestMemberAndEveryMemberHearsWhoIsActive() {
        member("m-1", 1_000L, "pod-a/1", false);
        member("m-2", 2_000L, "pod-b/1", false);

        GroupAssignment assignment = assign();

        assertThat(partitions(assignment, "m-2")).containsExactly(JOB);
        assertThat(partitions(assignment, "m-1")).isEmpty();
        assertThat(activeHeardBy(assignment, "m-1")).isEqualTo("pod-b/1");
        assertThat(activeHeardBy(assignment, "m-2")).isEqualTo("pod-b/1");
    }

    @Test
    void theActiveMemberKeepsTheJobWhenANewerOneJoins() {
        member("m-1", 1_000L, "v1/1", true);
        member("m-2", 5_000L, "v2/1", false);

        GroupAssignment assignment = assign();

        assertThat(partitions(assignment, "m-1")).as("no flip to the newcomer").containsExactly(JOB);
        assertThat(partitions(assignment, "m-2")).isEmpty();
    }

    @Test
    void whenTheActiveMemberLeavesTheNewestOfTheRestTakesOverNotAnOldStandby() {
        member("old-standby", 1_000L, "v1-b/1", false);
        member("new-a", 5_000L, "v2-a/1", false);
        member("new-b", 6_000L, "v2-b/1", false);

        GroupAssignment assignment = assign();

        assertThat(partitions(assignment, "new-b")).containsExactly(JOB);
        assertThat(partitions(assignment, "old-standby")).isEmpty();
        assertThat(partitions(assignment, "new-a")).isEmpty();
    }

    @Test
    void aMemberSaysWhoItIsInItsSubscription() {
        ReplicaAssignor assignor = new ReplicaAssignor();
        assignor.configure(
                Map.of(ReplicaAssignor.MEMBER, new ReplicaAssignor.Member(42L, "pod-c/7", "orders").setting()));

        ReplicaAssignor.Member decoded =
                ReplicaAssignor.Member.decode(assignor.subscriptionUserData(java.util.Set.of(TOPIC)));

        assertThat(decoded).isEqualTo(new ReplicaAssignor.Member(42L, "pod-c/7", "orders"));
        assertThat(assignor.supportedProtocols())
                .as("cooperative: a rebalance never takes the job from the active member to hand it back")
                .containsExactly(
                        org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.RebalanceProtocol.COOPERATIVE);
    }

    private void member(String id, long startedAt, String name, boolean ownsTheJob) {
        members.put(
                id,
                new Subscription(
                        List.of(TOPIC),
                        new ReplicaAssignor.Member(startedAt, name, "orders").encode(),
                        ownsTheJob ? List.of(JOB) : List.of(),
                        3,
                        Optional.empty()));
    }

    private GroupAssignment assign() {
        return new ReplicaAssignor().assign(Cluster.empty(), new GroupSubscription(members));
    }

    private static List<TopicPartition> partitions(GroupAssignment assignment, String member) {
        return new ArrayList<>(assignment.groupAssignment().get(member).partitions());
    }

    private static String activeHeardBy(GroupAssignment assignment, String member) {
        return ReplicaAssignor.Member.decode(
                        assignment.groupAssignment().get(member).userData())
                .name();
    }
}
