package io.streamsplit.embedded.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Security of an {@link EmbeddedKafkaBroker}'s client listener: the protocol ({@code SASL_PLAINTEXT},
 * {@code SSL}, {@code SASL_SSL}), SASL users (PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 all accept them),
 * TLS material generated at start with the JDK's {@code keytool} (a self-signed certificate for
 * {@code localhost} and {@code 127.0.0.1}, valid for a week), and an ACL authorizer.
 *
 * <pre>{@code
 * EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder()
 *         .security(BrokerSecurity.saslSsl().user("alice", "alice-secret").acls(true))
 *         .build().start();
 * Properties client = broker.clientProperties("alice", "alice-secret", "SCRAM-SHA-512");
 * }</pre>
 *
 * <p>The broker keeps a second, PLAINTEXT listener for itself (inter-broker traffic and the
 * {@code createTopic}/ACL helpers); its anonymous principal is a super user, so keep that port to tests.
 */
public final class BrokerSecurity {

    /** The listener name of the secured client listener. */
    static final String LISTENER = "SECURE";
    /** The password of the generated key and trust stores. */
    static final String STORE_PASSWORD = "embedded-kafka-store";

    private final String protocol;
    private final Map<String, String> users = new LinkedHashMap<>();
    private boolean acls;
    private @Nullable String clientCertificateName;
    private @Nullable Path clientKeyStore;
    private @Nullable Path trustStore;
    private @Nullable Path keyStore;
    private String certificatePem;

    private BrokerSecurity(String protocol) {
        this.protocol = protocol;
    }

    /** SASL over plain TCP. */
    public static BrokerSecurity saslPlaintext() {
        return new BrokerSecurity("SASL_PLAINTEXT");
    }

    /** TLS without SASL (clients are anonymous unless they present a certificate). */
    public static BrokerSecurity ssl() {
        return new BrokerSecurity("SSL");
    }

    /** SASL over TLS: what production clusters usually ask for. */
    public static BrokerSecurity saslSsl() {
        return new BrokerSecurity("SASL_SSL");
    }

    /** A SASL user; PLAIN and both SCRAM mechanisms accept it. */
    public BrokerSecurity user(String name, String password) {
        users.put(name, password);
        return this;
    }

    /** Whether to authorize requests with ACLs (Kafka's StandardAuthorizer; no ACL means no access). */
    public BrokerSecurity acls(boolean enabled) {
        this.acls = enabled;
        return this;
    }

    /**
     * Requires TLS clients to present a certificate (mutual TLS): a client key pair with subject
     * {@code CN=<commonName>} is generated next to the broker's, the broker trusts it, and Kafka sees
     * the client as principal {@code User:CN=<commonName>}. See {@link #clientKeyStore()}.
     */
    public BrokerSecurity requireClientCertificate(String commonName) {
        this.clientCertificateName = commonName;
        return this;
    }

    /** PKCS12 key store with the client key pair of {@link #requireClientCertificate} (password {@link #trustStorePassword()}). */
    public Path clientKeyStore() {
        return requireTls(clientKeyStore);
    }

    /** The client listener's security protocol. */
    public String protocol() {
        return protocol;
    }

    /** The SASL users and their passwords. */
    public Map<String, String> users() {
        return Map.copyOf(users);
    }

    /** PKCS12 trust store holding the broker's certificate (password {@link #trustStorePassword()}). */
    public Path trustStore() {
        return requireTls(trustStore);
    }

    /** Password of {@link #trustStore()}. */
    public String trustStorePassword() {
        return STORE_PASSWORD;
    }

    /** The broker's certificate, PEM-encoded: what a client's trust material must contain. */
    public String certificatePem() {
        return requireTls(certificatePem);
    }

    boolean usesSasl() {
        return protocol.startsWith("SASL_");
    }

    boolean usesTls() {
        return protocol.endsWith("SSL");
    }

    boolean aclsEnabled() {
        return acls;
    }

    /** Client settings (no bootstrap servers) for {@code user}; {@code mechanism} PLAIN or SCRAM-SHA-256/512. */
    Properties clientProperties(String user, String password, String mechanism) {
        Properties props = new Properties();
        props.put("security.protocol", protocol);
        if (usesSasl()) {
            String module = mechanism.equals("PLAIN")
                    ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                    : "org.apache.kafka.common.security.scram.ScramLoginModule";
            props.put("sasl.mechanism", mechanism);
            props.put(
                    "sasl.jaas.config", module + " required username=\"" + user + "\" password=\"" + password + "\";");
        }
        if (usesTls()) {
            props.put("ssl.truststore.location", trustStore().toString());
            props.put("ssl.truststore.password", STORE_PASSWORD);
            props.put("ssl.truststore.type", "PKCS12");
            if (clientKeyStore != null) {
                props.put("ssl.keystore.location", clientKeyStore.toString());
                props.put("ssl.keystore.password", STORE_PASSWORD);
                props.put("ssl.key.password", STORE_PASSWORD);
                props.put("ssl.keystore.type", "PKCS12");
            }
        }
        return props;
    }

    /** Generates the TLS material (once, in a temporary directory) and returns the secure listener's settings. */
    Map<String, String> brokerProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        String prefix = "listener.name." + LISTENER.toLowerCase(Locale.ROOT) + ".";
        if (usesSasl()) {
            props.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
            StringBuilder plain = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
            users.forEach((user, password) -> plain.append(" user_")
                    .append(user)
                    .append("=\"")
                    .append(password)
                    .append('"'));
            props.put(prefix + "plain.sasl.jaas.config", plain.append(';').toString());
            String scram = "org.apache.kafka.common.security.scram.ScramLoginModule required;";
            props.put(prefix + "scram-sha-256.sasl.jaas.config", scram);
            props.put(prefix + "scram-sha-512.sasl.jaas.config", scram);
        }
        if (usesTls()) {
            generateTlsMaterial();
            props.put(prefix + "ssl.keystore.location", keyStore.toString());
            props.put(prefix + "ssl.keystore.password", STORE_PASSWORD);
            props.put(prefix + "ssl.key.password", STORE_PASSWORD);
            props.put(prefix + "ssl.keystore.type", "PKCS12");
            if (clientCertificateName != null) {
                props.put(prefix + "ssl.client.auth", "required");
                props.put(prefix + "ssl.truststore.location", trustStore.toString());
                props.put(prefix + "ssl.truststore.password", STORE_PASSWORD);
                props.put(prefix + "ssl.truststore.type", "PKCS12");
            }
        }
        if (acls) {
            props.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
            // the internal PLAINTEXT listener and the controller run as ANONYMOUS
            props.put("super.users", "User:ANONYMOUS");
        }
        return props;
    }

    /** Deletes the generated key and trust stores (the broker's log directory must not hold them: Kafka reads it). */
    void deleteTlsMaterial() {
        if (keyStore != null) {
            BrokerSupport.deleteRecursively(keyStore.getParent());
            keyStore = null;
            trustStore = null;
            clientKeyStore = null;
        }
    }

    private void generateTlsMaterial() {
        if (keyStore != null) {
            return;
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory("streamsplit-kafka-tls-");
            Path key = dir.resolve("broker-keystore.p12");
            Path trust = dir.resolve("truststore.p12");
            String brokerPem = keyPairTrustedBy(key, "broker", "CN=localhost", "dns:localhost,ip:127.0.0.1", trust);
            if (clientCertificateName != null) {
                // one trust store for both sides: clients trust the broker, the broker trusts the client
                Path client = dir.resolve("client-keystore.p12");
                keyPairTrustedBy(client, "client", "CN=" + clientCertificateName, null, trust);
                clientKeyStore = client;
            }
            certificatePem = brokerPem;
            trustStore = trust;
            keyStore = key;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the embedded broker's TLS material to " + dir, e);
        }
    }

    /**
     * A new RSA key pair and self-signed certificate (valid 7 days) for {@code alias} in PKCS12 key store
     * {@code keyStore}, its certificate added to {@code trust}; returns the certificate as PEM.
     *
     * @param subjectAlternativeNames e.g. {@code dns:localhost,ip:127.0.0.1}, or {@code null}: none
     */
    private static String keyPairTrustedBy(
            Path keyStore, String alias, String distinguishedName, @Nullable String subjectAlternativeNames, Path trust)
            throws IOException {
        Keytool.selfSigned(keyStore, alias, distinguishedName, subjectAlternativeNames, STORE_PASSWORD);
        Path pem = keyStore.resolveSibling(alias + ".pem");
        Keytool.run(
                "-exportcert",
                "-rfc",
                "-alias",
                alias,
                "-keystore",
                keyStore.toString(),
                "-storepass",
                STORE_PASSWORD,
                "-file",
                pem.toString());
        Keytool.run(
                "-importcert",
                "-noprompt",
                "-alias",
                alias,
                "-file",
                pem.toString(),
                "-storetype",
                "PKCS12",
                "-keystore",
                trust.toString(),
                "-storepass",
                STORE_PASSWORD);
        return Files.readString(pem);
    }

    private <T> T requireTls(@Nullable T value) {
        if (!usesTls()) {
            throw new IllegalStateException("The broker's listener is " + protocol + "; there is no TLS material");
        }
        if (value == null) {
            throw new IllegalStateException("TLS material is generated when the broker starts; start it first");
        }
        return value;
    }
}
