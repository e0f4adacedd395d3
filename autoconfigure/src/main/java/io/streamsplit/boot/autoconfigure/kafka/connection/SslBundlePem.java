package io.streamsplit.boot.autoconfigure.kafka.connection;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Turns a Spring Boot {@link SslBundle} into Kafka client properties that can travel inside a
 * serialized Flink job: PEM strings ({@code ssl.truststore.certificates}, {@code ssl.keystore.key},
 * {@code ssl.keystore.certificate.chain}) instead of a live bundle object or local file paths. Kafka
 * treats these as passwords: its own config logging hides them.
 */
public final class SslBundlePem {

    private static final Base64.Encoder PEM = Base64.getMimeEncoder(64, "\n".getBytes());

    private SslBundlePem() {}

    /** The bundle {@code name} that {@code property} names; a clear startup failure when there is none. */
    public static SslBundle bundle(String property, String name, @Nullable SslBundles bundles) {
        if (bundles == null) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    name,
                    "no SslBundles bean is available",
                    "Define the bundle under spring.ssl.bundle (Spring Boot's SSL auto-configuration provides the bean).");
        }
        try {
            return bundles.getBundle(name);
        } catch (NoSuchSslBundleException e) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    name,
                    "there is no SSL bundle named '" + name + "'",
                    "Use one of " + bundles.getBundleNames() + ", or define spring.ssl.bundle.pem." + name
                            + ".* (or spring.ssl.bundle.jks." + name + ".*).",
                    e);
        }
    }

    /** The certificates of {@code bundle}'s trust store as PEM; a startup failure naming {@code property} when it has none. */
    public static String trustedCertificates(String property, String name, SslBundle bundle) {
        String pem = clientProperties(property, bundle).get("ssl.truststore.certificates");
        if (pem == null || pem.isEmpty()) {
            throw new InvalidStreamSplitConfigurationException(
                    property,
                    name,
                    "the SSL bundle has no trust store, so it cannot say which certificate to trust",
                    "Give the bundle a truststore (spring.ssl.bundle.pem." + name + ".truststore.certificate).");
        }
        return pem;
    }

    /** The client properties for {@code bundle}; {@code origin} (where the bundle comes from) only names it in errors. */
    static Map<String, String> clientProperties(String origin, SslBundle bundle) {
        Map<String, String> props = new LinkedHashMap<>();
        try {
            KeyStore trust = bundle.getStores().getTrustStore();
            if (trust != null) {
                StringBuilder certificates = new StringBuilder();
                for (String alias : Collections.list(trust.aliases())) {
                    Certificate certificate = trust.getCertificate(alias);
                    if (certificate != null) {
                        certificates.append(pem("CERTIFICATE", certificate.getEncoded()));
                    }
                }
                props.put("ssl.truststore.type", "PEM");
                props.put("ssl.truststore.certificates", certificates.toString());
            }
            KeyStore keys = bundle.getStores().getKeyStore();
            if (keys != null) {
                String alias =
                        bundle.getKey().getAlias() != null ? bundle.getKey().getAlias() : firstKeyAlias(keys);
                String password = bundle.getKey().getPassword() != null
                        ? bundle.getKey().getPassword()
                        : bundle.getStores().getKeyStorePassword();
                Key key = keys.getKey(alias, password != null ? password.toCharArray() : new char[0]);
                if (!(key instanceof PrivateKey)) {
                    throw new IllegalArgumentException("entry '" + alias + "' of the key store holds no private key");
                }
                StringBuilder chain = new StringBuilder();
                for (Certificate certificate : keys.getCertificateChain(alias)) {
                    chain.append(pem("CERTIFICATE", certificate.getEncoded()));
                }
                props.put("ssl.keystore.type", "PEM");
                props.put("ssl.keystore.key", pem("PRIVATE KEY", key.getEncoded()));
                props.put("ssl.keystore.certificate.chain", chain.toString());
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "the SSL bundle of " + origin + " cannot be turned into PEM client" + " properties for Kafka: "
                            + e.getMessage(),
                    e);
        }
        if (bundle.getOptions().getEnabledProtocols() != null) {
            props.put(
                    "ssl.enabled.protocols",
                    String.join(",", bundle.getOptions().getEnabledProtocols()));
        }
        if (bundle.getOptions().getCiphers() != null) {
            props.put("ssl.cipher.suites", String.join(",", bundle.getOptions().getCiphers()));
        }
        return props;
    }

    private static String firstKeyAlias(KeyStore keys) throws GeneralSecurityException {
        for (String alias : Collections.list(keys.aliases())) {
            if (keys.isKeyEntry(alias)) {
                return alias;
            }
        }
        throw new IllegalArgumentException("the key store has no key entry");
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + PEM.encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
