package io.streamsplit.registry.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A real schema registry for tests: Apicurio Registry (in-memory storage) in its own JVM, speaking the
 * Confluent Schema Registry API at {@link #url()}. One registry serves every test of a JVM:
 *
 * <pre>{@code
 * import io.streamsplit.registry.test.TestSchemaRegistry;
 *
 * String url = TestSchemaRegistry.shared().url(); // http://localhost:41234/apis/ccompat/v6
 * }</pre>
 *
 * Subjects are global to the registry, so tests name theirs after their own topics.
 */
public final class TestSchemaRegistry implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final String API = "/apis/ccompat/v6";
    private static TestSchemaRegistry shared;

    private static final String STORE_PASSWORD = "registry-secret";

    private final List<String> command;
    private final Path log;
    private final int port;
    /** The TLS certificate, or null: plain HTTP. */
    private final Path certificate;
    private final Thread shutdownHook;
    private Process process;

    private TestSchemaRegistry(List<String> command, Path log, int port, Path certificate) throws IOException {
        this.command = command;
        this.log = log;
        this.port = port;
        this.certificate = certificate;
        this.shutdownHook = new Thread(this::stopAndDelete, "test-schema-registry-shutdown");
        this.process = spawn();
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** The registry of this JVM, started on first use and stopped when the JVM exits. */
    public static synchronized TestSchemaRegistry shared() {
        if (shared == null || !shared.process.isAlive()) {
            shared = start();
        }
        return shared;
    }

    /** Starts a registry of its own (in-memory: it starts empty), waiting until it answers. */
    public static TestSchemaRegistry start() {
        int port = freePort();
        return launch(List.of("-Dquarkus.http.port=" + port), port, null);
    }

    /**
     * Starts a registry of its own that answers HTTPS only, with a new self-signed certificate for
     * {@code localhost} and {@code 127.0.0.1} ({@link #certificate()}), waiting until it answers.
     */
    public static TestSchemaRegistry startWithTls() {
        try {
            Path dir = Files.createTempDirectory("schema-registry-tls-");
            Path keyStore = dir.resolve("registry.p12");
            Path certificate = dir.resolve("registry.pem");
            keytool("-genkeypair", "-alias", "registry", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
                    "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "7", "-storetype", "PKCS12", "-keystore",
                    keyStore.toString(), "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
            keytool("-exportcert", "-rfc", "-alias", "registry", "-keystore", keyStore.toString(), "-storepass",
                    STORE_PASSWORD, "-file", certificate.toString());
            int port = freePort();
            return launch(
                    List.of(
                            "-Dquarkus.http.port=" + freePort(),
                            "-Dquarkus.http.ssl-port=" + port,
                            "-Dquarkus.http.insecure-requests=disabled",
                            "-Dquarkus.http.ssl.certificate.key-store-file=" + keyStore,
                            "-Dquarkus.http.ssl.certificate.key-store-password=" + STORE_PASSWORD),
                    port,
                    certificate);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not make the test schema registry's TLS certificate", e);
        }
    }

    private static TestSchemaRegistry launch(List<String> settings, int port, Path certificate) {
        Path runner = runnerJar();
        try {
            Path data = Files.createTempDirectory("schema-registry-");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m",
                    "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1",
                    "-Dquarkus.http.host=127.0.0.1",
                    // an H2 file instead of Apicurio's in-memory default, written at once, so a restart (even after
                    // kill -9) keeps every schema it answered for
                    "-DREGISTRY_DATASOURCE_URL=jdbc:h2:file:" + data.resolve("registry") + ";WRITE_DELAY=0",
                    // the build's Sentry client warns at every start that it has nowhere to report to
                    "-Dquarkus.log.category.\"io.sentry\".level=ERROR"));
            command.addAll(settings);
            command.addAll(List.of("-jar", runner.toString()));
            TestSchemaRegistry registry =
                    new TestSchemaRegistry(List.copyOf(command), data.resolve("registry.log"), port, certificate);
            registry.awaitReady();
            return registry;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the test schema registry " + runner, e);
        }
    }

    private Process spawn() throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    /** Stops the registry's JVM as {@code kill -9} would; {@link #restart()} brings it back with its schemas. */
    public void kill9() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the registry again on the same port with the schemas it had, waiting until it answers. */
    public void restart() {
        kill();
        try {
            process = spawn();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not restart the test schema registry", e);
        }
        awaitReady();
    }

    /** The registry's TLS certificate (PEM file) when it was started with {@link #startWithTls()}. */
    public Path certificate() {
        if (certificate == null) {
            throw new IllegalStateException("this registry answers plain HTTP: start one with startWithTls()");
        }
        return certificate;
    }

    /** The base URL of the Confluent-compatible API, what a Confluent client's {@code schema.registry.url} takes. */
    public String url() {
        return (certificate == null ? "http" : "https") + "://127.0.0.1:" + port + API;
    }

    /** The registry's log (its own JVM's output). */
    public Path log() {
        return log;
    }

    @Override
    public void close() {
        stopAndDelete();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook runs anyway
        }
    }

    /** Stops the registry and deletes its temporary directories (storage, log, TLS material). */
    private void stopAndDelete() {
        kill();
        delete(log.getParent());
        if (certificate != null) {
            delete(certificate.getParent());
        }
    }

    private static void delete(Path directory) {
        try (java.util.stream.Stream<Path> files = Files.walk(directory)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }

    private void kill() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitReady() {
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
        if (certificate != null) {
            client.sslContext(trusting(certificate));
        }
        HttpClient http = client.build();
        HttpRequest subjects = HttpRequest.newBuilder(URI.create(url() + "/subjects"))
                .timeout(Duration.ofSeconds(5))
                .build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("The test schema registry exited with code " + process.exitValue()
                        + " before it answered; its log " + log + ":\n" + tail());
            }
            try {
                HttpResponse<String> response = http.send(subjects, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
                last = "HTTP " + response.statusCode() + " " + response.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        kill();
        throw new IllegalStateException("The test schema registry did not answer " + url() + "/subjects within "
                + START_TIMEOUT.toSeconds() + " s (last: " + last + "); its log " + log + ":\n" + tail());
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static Path runnerJar() {
        try (InputStream in = TestSchemaRegistry.class.getResourceAsStream("registry.location")) {
            if (in == null) {
                throw new IllegalStateException("registry.location is missing from the classpath");
            }
            Path runner = Path.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
            if (!Files.isRegularFile(runner)) {
                throw new IllegalStateException("The test schema registry is not built: " + runner + " is missing."
                        + " Run `mvn -B package -pl test-schema-registry` (Quarkus builds it in the package"
                        + " phase), or run the tests with `mvn -B verify`.");
            }
            return runner;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SSLContext trusting(Path certificate) {
        try (InputStream in = Files.newInputStream(certificate)) {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("registry", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("Cannot trust " + certificate, e);
        }
    }

    private static void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + args[0] + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
