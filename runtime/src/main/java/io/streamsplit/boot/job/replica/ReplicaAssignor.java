package io.streamsplit.boot.job.replica;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Decides which member of an election group is active: the one partition of the election topic is the job,
 * and the member it is assigned to runs it. The active member keeps it for as long as it stays in the group —
 * a replica that joins never takes the job from a running one — and when the active member leaves (a clean
 * stop, or its session timed out after a crash) the newest member gets it: in a rolling update that is an
 * instance of the new version, so the job moves once, forward, never back to an old instance about to stop.
 *
 * <p>It runs in the group leader's consumer (Kafka's classic group protocol, client-side assignment) and, with
 * the cooperative protocol, moves nothing that another member still owns. Each member says in its
 * subscription when it started and who it is; every assignment says who is active.
 */
public final class ReplicaAssignor implements ConsumerPartitionAssignor, Configurable {

    /** The consumer setting that carries this member's identity into its subscription. */
    static final String MEMBER = "streamsplit.replica.member";

    /** The consumer setting whose value hears, at each assignment, which member is active. */
    static final String ACTIVE_HEARD = "streamsplit.replica.active-heard";

    private Member self = new Member(0L, "unknown", "");
    private java.util.function.Consumer<Member> activeHeard = active -> {};

    /** Who a member is: when it started (epoch ms), its name (host and process) and its application's name. */
    record Member(long startedAt, String name, String application) {

        ByteBuffer encode() {
            return ByteBuffer.wrap(setting().getBytes(StandardCharsets.UTF_8));
        }

        static Member decode(@Nullable ByteBuffer data) {
            if (data == null) {
                return new Member(0L, "unknown", "");
            }
            byte[] bytes = new byte[data.remaining()];
            data.duplicate().get(bytes);
            String[] parts = new String(bytes, StandardCharsets.UTF_8).split("\n", 3);
            try {
                return new Member(
                        Long.parseLong(parts[0]),
                        parts.length > 1 ? parts[1] : "unknown",
                        parts.length > 2 ? parts[2] : "");
            } catch (NumberFormatException unreadable) {
                return new Member(0L, "unknown", "");
            }
        }

        /** As the consumer setting {@value ReplicaAssignor#MEMBER} carries it. */
        String setting() {
            return startedAt + "\n" + name + "\n" + application;
        }
    }

    @Override
    public void configure(Map<String, ?> configs) {
        Object member = configs.get(MEMBER);
        if (member != null) {
            self = Member.decode(ByteBuffer.wrap(member.toString().getBytes(StandardCharsets.UTF_8)));
        }
        if (configs.get(ACTIVE_HEARD) instanceof java.util.function.Consumer<?> heard) {
            @SuppressWarnings("unchecked")
            java.util.function.Consumer<Member> members = (java.util.function.Consumer<Member>) heard;
            activeHeard = members;
        }
    }

    @Override
    public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
        activeHeard.accept(Member.decode(assignment.userData()));
    }

    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        return self.encode();
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        Map<String, Subscription> members = groupSubscription.groupSubscription();
        Map<String, Assignment> assignments = new HashMap<>();
        if (members.isEmpty()) {
            return new GroupAssignment(assignments);
        }
        String topic = members.values().iterator().next().topics().get(0);
        TopicPartition job = new TopicPartition(topic, 0);
        String active = active(members, job);
        ByteBuffer activeName = Member.decode(
                        java.util.Objects.requireNonNull(members.get(active)).userData())
                .encode();
        members.keySet()
                .forEach(id -> assignments.put(
                        id, new Assignment(id.equals(active) ? List.of(job) : List.of(), activeName.duplicate())));
        return new GroupAssignment(assignments);
    }

    /** The member that owns the job, else the newest one (ties: the lowest member id, so every leader agrees). */
    static String active(Map<String, Subscription> members, TopicPartition job) {
        return members.entrySet().stream()
                .filter(member -> member.getValue().ownedPartitions().contains(job))
                .max(Comparator.comparing((Map.Entry<String, Subscription> member) ->
                        member.getValue().generationId().orElse(-1)))
                .map(Map.Entry::getKey)
                .orElseGet(() -> members.entrySet().stream()
                        .max(Comparator.comparing((Map.Entry<String, Subscription> member) -> Member.decode(
                                                member.getValue().userData())
                                        .startedAt())
                                .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                        .orElseThrow()
                        .getKey());
    }

    @Override
    public List<RebalanceProtocol> supportedProtocols() {
        return List.of(RebalanceProtocol.COOPERATIVE);
    }

    @Override
    public String name() {
        return "streamsplit-replicas";
    }
}
