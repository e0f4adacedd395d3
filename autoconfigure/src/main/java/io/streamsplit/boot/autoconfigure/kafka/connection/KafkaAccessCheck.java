package io.streamsplit.boot.autoconfigure.kafka.connection;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.BoundedAdmin;
import io.streamsplit.boot.kafka.KafkaClients;
import io.streamsplit.boot.kafka.KafkaFailures;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Startup check of a secured Kafka connection (SASL or TLS): does Kafka accept the credentials, and
 * does the principal hold what the source or sink needs — DESCRIBE and READ on the source's topics,
 * READ on its consumer group, WRITE on a sink's topic? A failure names the principal, the missing
 * operation, the resource and the {@code kafka-acls.sh} line that grants it, instead of a job that
 * restarts forever on an authorization error. An unreachable cluster is only logged: the job's own
 * retries handle that. Transactional-id rights cannot be asked for; the job reports them when it
 * first commits (see {@link KafkaFailures}).
 */
public final class KafkaAccessCheck {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaAccessCheck.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final Pattern JAAS_USER = Pattern.compile("username\\s*=\\s*\"([^\"]*)\"");

    private KafkaAccessCheck() {}

    /** Whether {@code client} authenticates (SASL) or encrypts (TLS): only then is there something to check. */
    public static boolean secured(Properties client) {
        String protocol = client.getProperty("security.protocol", "PLAINTEXT");
        return !protocol.equalsIgnoreCase("PLAINTEXT");
    }

    /** The principal Kafka will see, as far as the client settings tell. */
    public static String principal(Properties client) {
        Matcher user = JAAS_USER.matcher(client.getProperty("sasl.jaas.config", ""));
        if (user.find()) {
            return "User:" + user.group(1);
        }
        String chain = client.getProperty("ssl.keystore.certificate.chain");
        if (chain != null) {
            try {
                X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(chain.getBytes(StandardCharsets.US_ASCII)));
                // Kafka's default SSL principal: the subject's distinguished name
                return "User:" + certificate.getSubjectX500Principal().getName();
            } catch (CertificateException | RuntimeException e) {
                return "the principal of the client certificate";
            }
        }
        return client.containsKey("ssl.keystore.location") || client.containsKey("ssl.keystore.key")
                ? "the principal of the client certificate"
                : "User:ANONYMOUS";
    }

    /**
     * Checks a source: credentials, DESCRIBE+READ on {@code topics} (null for a pattern), READ on
     * {@code groupId}; {@code p} is the source's property prefix ({@code streamsplit.kafka.sources.<name>.}).
     */
    public static void checkSource(
            String name,
            String p,
            Properties client,
            @Nullable List<String> topics,
            @Nullable String groupId,
            String credentialsProperty) {
        String what = "source '" + name + "'";
        withAdmin(what, client, credentialsProperty, admin -> {
            if (topics != null && !topics.isEmpty()) {
                requireOnTopics(admin, client, what, p + "topics", topics, AclOperation.READ);
            }
            if (groupId != null) {
                requireOnGroup(admin, client, what, p + "group-id", groupId);
            }
        });
    }

    /**
     * Checks a writer (a sink, or a source's dead-letter producer): credentials and WRITE on {@code topic}
     * (null for a topic selector), which {@code topicProperty} names.
     */
    public static void checkWriter(
            String what, Properties client, String topicProperty, @Nullable String topic, String credentialsProperty) {
        withAdmin(what, client, credentialsProperty, admin -> {
            if (topic != null) {
                requireOnTopics(admin, client, what, topicProperty, List.of(topic), AclOperation.WRITE);
            }
        });
    }

    private interface AdminCheck {
        void run(Admin admin) throws Exception;
    }

    private static void withAdmin(String what, Properties client, String credentialsProperty, AdminCheck check) {
        Properties props = KafkaClients.checkingAdmin(client, "streamsplit-access-check", TIMEOUT);
        try (BoundedAdmin bounded = BoundedAdmin.create(props)) {
            Admin admin = bounded.admin();
            admin.describeCluster().nodes().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            check.run(admin);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof AuthenticationException authentication) {
                throw credentialsRejected(what, client, credentialsProperty, authentication);
            }
            LOG.warn(
                    "Could not check Kafka access of {} at {}: {}. The job will report problems when it runs.",
                    what,
                    client.getProperty("bootstrap.servers"),
                    String.valueOf(cause));
        } catch (TimeoutException e) {
            LOG.warn(
                    "Could not check Kafka access of {}: {} did not answer within {}. The job will retry.",
                    what,
                    client.getProperty("bootstrap.servers"),
                    TIMEOUT);
        } catch (InvalidStreamSplitConfigurationException e) {
            throw e;
        } catch (Exception e) {
            LOG.warn("Could not check Kafka access of {}: {}", what, e.toString());
        }
    }

    private static void requireOnTopics(
            Admin admin, Properties client, String what, String property, List<String> topics, AclOperation operation)
            throws Exception {
        Map<String, TopicDescription> described;
        try {
            described = admin.describeTopics(topics, new DescribeTopicsOptions().includeAuthorizedOperations(true))
                    .allTopicNames()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicAuthorizationException denied) {
                throw denied(
                        what,
                        client,
                        property,
                        topics,
                        AclOperation.DESCRIBE,
                        "topic",
                        String.join(
                                ",",
                                denied.unauthorizedTopics().isEmpty()
                                        ? Set.copyOf(topics)
                                        : denied.unauthorizedTopics()));
            }
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return; // the source or sink reports a missing topic itself
            }
            throw e;
        }
        for (TopicDescription topic : described.values()) {
            Set<AclOperation> allowed = topic.authorizedOperations();
            if (allowed != null && !allowed.contains(operation) && !allowed.contains(AclOperation.ALL)) {
                throw denied(what, client, property, topics, operation, "topic", topic.name());
            }
        }
    }

    private static void requireOnGroup(Admin admin, Properties client, String what, String property, String groupId)
            throws Exception {
        ConsumerGroupDescription group;
        try {
            group = admin.describeConsumerGroups(
                            List.of(groupId), new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true))
                    .all()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .get(groupId);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupAuthorizationException) {
                throw denied(what, client, property, groupId, AclOperation.READ, "group", groupId);
            }
            throw e;
        }
        Set<AclOperation> allowed = group == null ? null : group.authorizedOperations();
        if (allowed != null && !allowed.contains(AclOperation.READ) && !allowed.contains(AclOperation.ALL)) {
            throw denied(what, client, property, groupId, AclOperation.READ, "group", groupId);
        }
    }

    private static InvalidStreamSplitConfigurationException denied(
            String what,
            Properties client,
            String property,
            Object value,
            AclOperation operation,
            String resourceType,
            String resource) {
        String principal = principal(client);
        String op = operation.name().charAt(0) + operation.name().substring(1).toLowerCase(Locale.ROOT);
        return new InvalidStreamSplitConfigurationException(
                property,
                value,
                "Kafka denies " + principal + " " + operation + " on " + resourceType + " '" + resource + "', which "
                        + what + " needs",
                "Grant it, e.g. kafka-acls.sh --bootstrap-server " + client.getProperty("bootstrap.servers")
                        + " --command-config admin.properties --add --allow-principal " + principal + " --operation "
                        + op + " --" + resourceType + " " + resource
                        + (operation == AclOperation.READ && resourceType.equals("topic")
                                ? " (READ includes DESCRIBE)"
                                : "")
                        + "; or set streamsplit.kafka.verify-access=false to skip this check.");
    }

    private static InvalidStreamSplitConfigurationException credentialsRejected(
            String what, Properties client, String credentialsProperty, AuthenticationException e) {
        boolean tls = e instanceof SslAuthenticationException;
        String mechanism = client.getProperty("sasl.mechanism", "GSSAPI");
        String problem = tls
                ? "the TLS handshake of " + what + " with " + client.getProperty("bootstrap.servers") + " failed: "
                        + e.getMessage()
                : "Kafka at " + client.getProperty("bootstrap.servers") + " rejected the SASL " + mechanism
                        + " credentials of " + principal(client) + " (" + what + "): " + e.getMessage();
        String action = tls
                ? "Check the trust material (streamsplit.kafka.ssl-bundle or ssl.truststore.*): it must"
                        + " hold the CA that signed the broker's certificate, and the broker's name must match it."
                : "Check the user and password in sasl.jaas.config (not shown here) and that sasl.mechanism matches a"
                        + " mechanism the broker enables for that user.";
        return new InvalidStreamSplitConfigurationException(
                tls ? "streamsplit.kafka.ssl-bundle" : credentialsProperty,
                tls ? null : client.getProperty("sasl.jaas.config"),
                problem,
                action,
                e);
    }
}
