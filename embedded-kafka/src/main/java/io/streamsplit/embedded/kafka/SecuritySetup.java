package io.streamsplit.embedded.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.ResourcePattern;

/** The admin calls behind {@link BrokerSecurity}: SCRAM credentials and ACLs, each awaited until in force. */
final class SecuritySetup {

    private static final long TIMEOUT_MS = 30_000;

    private SecuritySetup() {}

    /** Stores every user's password for SCRAM-SHA-256 and SCRAM-SHA-512, then waits until the broker knows them. */
    static void createScramUsers(EmbeddedKafkaBroker broker, BrokerSecurity security) {
        if (!security.usesSasl() || security.users().isEmpty()) {
            return;
        }
        broker.withAdmin(
                admin -> {
                    // one request per mechanism: a request may not alter the same user twice
                    for (ScramMechanism mechanism :
                            List.of(ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512)) {
                        List<UserScramCredentialAlteration> alterations = new ArrayList<>();
                        security.users()
                                .forEach((user, password) -> alterations.add(new UserScramCredentialUpsertion(
                                        user, new ScramCredentialInfo(mechanism, 4096), password)));
                        admin.alterUserScramCredentials(alterations).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                    }
                    long deadline = System.currentTimeMillis() + TIMEOUT_MS;
                    while (admin.describeUserScramCredentials(
                                            List.copyOf(security.users().keySet()))
                                    .all()
                                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS)
                                    .size()
                            < security.users().size()) {
                        if (System.currentTimeMillis() > deadline) {
                            throw new IllegalStateException(
                                    "SCRAM users " + security.users().keySet() + " did not appear");
                        }
                        TimeUnit.MILLISECONDS.sleep(50);
                    }
                    return null;
                },
                "create SCRAM users " + security.users().keySet());
    }

    /** Adds an ALLOW ACL and waits until the authorizer lists it. */
    static void allow(Admin admin, String principal, AclOperation operation, ResourcePattern resource)
            throws Exception {
        AclBinding binding =
                new AclBinding(resource, new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
        admin.createAcls(List.of(binding)).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        awaitListed(admin, allowFilter(principal, operation, resource), true);
    }

    /** Deletes the ALLOW binding of {@code operation} on {@code resource} for {@code principal}, and waits until it is gone. */
    static void revoke(Admin admin, String principal, AclOperation operation, ResourcePattern resource)
            throws Exception {
        AclBindingFilter filter = allowFilter(principal, operation, resource);
        admin.deleteAcls(List.of(filter)).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        awaitListed(admin, filter, false);
    }

    private static AclBindingFilter allowFilter(String principal, AclOperation operation, ResourcePattern resource) {
        return new AclBindingFilter(
                resource.toFilter(), new AccessControlEntryFilter(principal, "*", operation, AclPermissionType.ALLOW));
    }

    /** Waits until the authorizer lists what {@code filter} matches ({@code listed}) or no longer does. */
    private static void awaitListed(Admin admin, AclBindingFilter filter, boolean listed) throws Exception {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (admin.describeAcls(filter)
                        .values()
                        .get(TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .isEmpty()
                == listed) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("ACL " + filter + (listed ? " was not in force" : " still in force")
                        + " after " + TIMEOUT_MS + " ms");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }
}
