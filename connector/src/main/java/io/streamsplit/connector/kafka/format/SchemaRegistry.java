package io.streamsplit.connector.kafka.format;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.jspecify.annotations.Nullable;

/**
 * Where a schema registry answers, spoken to with the Confluent Schema Registry REST API (Confluent's
 * registry, and the compatible APIs of Apicurio, Karapace and Redpanda). Travels with the formats that
 * use it to the TaskManagers, so it holds settings only; its HTTP client is made where it is used.
 *
 * <pre>{@code
 * import io.streamsplit.connector.kafka.format.SchemaRegistry;
 *
 * SchemaRegistry registry = SchemaRegistry.at("https://registry:8081").withBasicAuth("app", secret);
 * }</pre>
 *
 * <p>A registry that does not answer (refused, timed out, HTTP 5xx, credentials refused) fails with
 * {@link KafkaRecordDeserializer.UnavailableException}, after trying each URL: the records are not at
 * fault, so a source fails the task instead of applying its bad-record policy.
 */
@PublicEvolving
public final class SchemaRegistry implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    /** The registry's error code for "no schema with this id" (HTTP 404). */
    private static final int SCHEMA_NOT_FOUND = 40403;

    private final List<String> urls;
    private final @Nullable String authorization;
    private final @Nullable String trustedCertificates;
    private transient @Nullable HttpClient http;
    private transient @Nullable ObjectMapper json;

    private SchemaRegistry(List<String> urls, @Nullable String authorization, @Nullable String trustedCertificates) {
        this.urls = urls;
        this.authorization = authorization;
        this.trustedCertificates = trustedCertificates;
    }

    /** The registry at {@code urls}: one base URL, or several separated by commas (tried in order). */
    public static SchemaRegistry at(String urls) {
        List<String> list = new ArrayList<>();
        for (String url : Objects.requireNonNull(urls, "urls").split(",")) {
            String trimmed = url.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            URI uri = URI.create(trimmed);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException(
                        "'" + trimmed + "' is not an http(s) URL of a schema registry, e.g. http://registry:8081");
            }
            list.add(trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException("no schema registry URL in '" + urls + "'");
        }
        return new SchemaRegistry(List.copyOf(list), null, null);
    }

    /** HTTP basic authentication (Confluent's {@code basic.auth.user.info}). */
    public SchemaRegistry withBasicAuth(String username, String password) {
        String token = Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        return new SchemaRegistry(urls, "Basic " + token, trustedCertificates);
    }

    /** Trusts the registry's TLS certificate when it is one of {@code pem} (PEM certificates), not the JDK's CAs. */
    public SchemaRegistry withTrustedCertificates(String pem) {
        SchemaRegistry registry = new SchemaRegistry(urls, authorization, Objects.requireNonNull(pem, "pem"));
        registry.sslContext(); // a PEM that does not parse fails here, not on a TaskManager
        return registry;
    }

    /** The base URLs, in the order they are tried. */
    public List<String> urls() {
        return urls;
    }

    /** Whether the registry answers ({@code GET /subjects}); throws what went wrong otherwise. */
    public void check() throws IOException {
        send("GET", "/subjects", null);
    }

    /** The schema registered as {@code id} ({@code GET /schemas/ids/{id}}); empty when the registry has no such id. */
    public Optional<String> schema(int id) throws IOException {
        Response response = send("GET", "/schemas/ids/" + id, null, SCHEMA_NOT_FOUND);
        return response.missing()
                ? Optional.empty()
                : Optional.of(response.body().path("schema").asText());
    }

    /**
     * Registers {@code schema} under {@code subject} (or finds it there) and returns its id, as a
     * Confluent serializer with {@code auto.register.schemas} does. Fails with the registry's reason
     * when the subject's compatibility rule refuses it. {@code type} is the registry's schema type:
     * {@code AVRO}, {@code JSON} or {@code PROTOBUF}.
     */
    public int register(String subject, String schema, String type) throws IOException {
        return id(send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema, type)));
    }

    /** The id of {@code schema} already registered under {@code subject}; empty when it is not. */
    public Optional<Integer> lookup(String subject, String schema, String type) throws IOException {
        Response response = send("POST", "/subjects/" + encode(subject), schemaBody(schema, type), 40401, 40403);
        return response.missing() ? Optional.empty() : Optional.of(id(response));
    }

    private static int id(Response response) throws IOException {
        JsonNode id = response.body().path("id");
        if (!id.canConvertToInt()) {
            throw new IOException("The schema registry answered without a schema id: " + response.body());
        }
        return id.asInt();
    }

    /**
     * Why the subject's compatibility rule would refuse {@code schema} as its next version; empty when
     * it accepts it, and when the subject has no version yet.
     */
    public Optional<String> incompatibility(String subject, String schema, String type) throws IOException {
        Response response = send(
                "POST",
                "/compatibility/subjects/" + encode(subject) + "/versions/latest?verbose=true",
                schemaBody(schema, type),
                40401,
                40402);
        if (response.missing() || response.body().path("is_compatible").asBoolean(false)) {
            return Optional.empty();
        }
        JsonNode messages = response.body().path("messages");
        return Optional.of(
                messages.isMissingNode() || messages.isEmpty()
                        ? "the subject's compatibility rule refuses it (the registry gave no details)"
                        : messages.toString());
    }

    private String schemaBody(String schema, String type) {
        ObjectNode body = json().createObjectNode();
        body.put("schema", schema);
        if (!"AVRO".equals(type)) {
            body.put("schemaType", type);
        }
        return body.toString();
    }

    private record Response(JsonNode body, boolean missing) {}

    private Response send(String method, String path, @Nullable String body, int... missingCodes) throws IOException {
        IOException last = null;
        for (String url : urls) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path))
                    .timeout(Duration.ofSeconds(10))
                    .header("Accept", CONTENT_TYPE + ", application/json");
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            if (body != null) {
                request.header("Content-Type", CONTENT_TYPE)
                        .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            } else {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            }
            HttpResponse<String> response;
            try {
                response = http().send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                last = new KafkaRecordDeserializer.UnavailableException(
                        "The schema registry at " + url + " does not answer (" + e + ")", e);
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while asking the schema registry at " + url);
            }
            int status = response.statusCode();
            JsonNode answer = parse(response.body());
            int errorCode = answer.path("error_code").asInt(0);
            if (status / 100 == 2) {
                return new Response(answer, false);
            }
            if (status == 404 && Arrays.stream(missingCodes).anyMatch(code -> code == errorCode)) {
                return new Response(answer, true);
            }
            String reason = method + " " + url + path + " answered HTTP " + status + ": "
                    + answer.path("message").asText(response.body());
            if (status >= 500 || status == 401 || status == 403 || status == 408 || status == 429) {
                last = new KafkaRecordDeserializer.UnavailableException("The schema registry " + reason, null);
                continue;
            }
            throw new IOException("The schema registry refused the request: " + reason);
        }
        throw Objects.requireNonNull(last);
    }

    private JsonNode parse(String body) {
        try {
            return json().readTree(body);
        } catch (IOException notJson) {
            return json().createObjectNode().put("message", body);
        }
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private HttpClient http() {
        if (http == null) {
            HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
            if (trustedCertificates != null) {
                builder.sslContext(sslContext());
            }
            http = builder.build();
        }
        return http;
    }

    private ObjectMapper json() {
        if (json == null) {
            json = new ObjectMapper();
        }
        return json;
    }

    private SSLContext sslContext() {
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(
                            Objects.requireNonNull(trustedCertificates).getBytes(StandardCharsets.US_ASCII)))) {
                trusted.setCertificateEntry("registry-" + i++, certificate);
            }
            if (i == 0) {
                throw new IllegalArgumentException("no PEM certificate in the schema registry's trusted certificates");
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException(
                    "The schema registry's trusted certificates are not PEM certificates: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "schema registry " + String.join(",", urls);
    }
}
