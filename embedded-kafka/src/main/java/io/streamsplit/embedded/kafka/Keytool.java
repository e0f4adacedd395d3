package io.streamsplit.embedded.kafka;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The JDK's {@code keytool}, for tests that need TLS material: key pairs with self-signed certificates in PKCS12
 * stores, and certificates exported and trusted.
 *
 * <pre>{@code
 * import io.streamsplit.embedded.kafka.Keytool;
 *
 * Path store = Keytool.selfSigned(dir.resolve("client.p12"), "client", "CN=orders-app", null, "secret");
 * }</pre>
 */
public final class Keytool {

    private Keytool() {}

    /**
     * A new PKCS12 store at {@code store} (valid 7 days) holding one RSA 2048 key pair under {@code alias} with a
     * self-signed certificate for {@code distinguishedName}; store and key share {@code password}.
     *
     * @param subjectAlternativeNames e.g. {@code dns:localhost,ip:127.0.0.1}, or {@code null}: none
     * @return {@code store}
     */
    public static Path selfSigned(
            Path store,
            String alias,
            String distinguishedName,
            @Nullable String subjectAlternativeNames,
            String password)
            throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "-genkeypair", "-alias", alias, "-keyalg", "RSA", "-keysize", "2048", "-dname", distinguishedName));
        if (subjectAlternativeNames != null) {
            args.addAll(List.of("-ext", "SAN=" + subjectAlternativeNames));
        }
        args.addAll(List.of(
                "-validity",
                "7",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                password,
                "-keypass",
                password));
        run(args.toArray(String[]::new));
        return store;
    }

    /** Runs {@code keytool} with {@code args}; fails with what it printed when it does not succeed within a minute. */
    public static void run(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        }
    }
}
