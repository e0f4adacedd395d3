package io.streamsplit.registry.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The registry answers as a Confluent Schema Registry does: ids for schemas, and its compatibility rules. */
class SchemaRegistryIT {

    private static final String V1 = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}";
    private static final String V2_WITH_DEFAULT = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\","
            + "\"type\":\"long\"},{\"name\":\"note\",\"type\":\"string\",\"default\":\"\"}]}";
    private static final String V2_WITHOUT_DEFAULT = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\","
            + "\"type\":\"long\"},{\"name\":\"note\",\"type\":\"string\"}]}";

    private HttpClient http = HttpClient.newHttpClient();

    @Test
    void registersSchemasAndEnforcesBackwardCompatibility() throws Exception {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
            String url = registry.url();
            HttpResponse<String> first = post(url + "/subjects/orders-value/versions", V1);
            assertEquals(200, first.statusCode(), first.body());
            String id = first.body().replaceAll("\\D", "");
            HttpResponse<String> byId = http.send(
                    request(url + "/schemas/ids/" + id).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, byId.statusCode(), byId.body());
            assertTrue(byId.body().contains("\\\"name\\\":\\\"Order\\\""), byId.body());

            HttpResponse<String> config = http.send(
                    request(url + "/config/orders-value")
                            .header("Content-Type", "application/json")
                            .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"BACKWARD\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, config.statusCode(), config.body());
            assertEquals(409, post(url + "/subjects/orders-value/versions", V2_WITHOUT_DEFAULT).statusCode());
            HttpResponse<String> evolved = post(url + "/subjects/orders-value/versions", V2_WITH_DEFAULT);
            assertEquals(200, evolved.statusCode(), evolved.body());
            assertTrue(!evolved.body().replaceAll("\\D", "").equals(id), "a new schema gets a new id: " + evolved.body());
        }
    }

    /** Every request has a timeout: an exchange that never completes fails its test, not the whole build. */
    private static HttpRequest.Builder request(String uri) {
        return HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30));
    }

    private HttpResponse<String> post(String uri, String schema) throws Exception {
        String body = "{\"schema\":\"" + schema.replace("\"", "\\\"") + "\"}";
        return http.send(
                request(uri)
                        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void answersHttpsOnlyWithItsOwnCertificate() throws Exception {
        try (TestSchemaRegistry registry = TestSchemaRegistry.startWithTls()) {
            assertTrue(registry.url().startsWith("https://127.0.0.1:"), registry.url());
            assertTrue(
                    java.nio.file.Files.readString(registry.certificate()).startsWith("-----BEGIN CERTIFICATE-----"));
            // a client that does not trust the certificate is refused
            Exception refused = org.junit.jupiter.api.Assertions.assertThrows(
                    javax.net.ssl.SSLHandshakeException.class,
                    () -> http.send(
                            request(registry.url() + "/subjects").build(),
                            HttpResponse.BodyHandlers.ofString()));
            assertTrue(refused.getMessage() != null);
        }
    }

    @Test
    void keepsItsSchemasAcrossAKillAndARestartOnTheSamePort() throws Exception {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
            HttpResponse<String> registered = post(registry.url() + "/subjects/kept-value/versions", V1);
            assertEquals(200, registered.statusCode(), registered.body());
            String id = registered.body().replaceAll("\\D", "");

            registry.kill9();
            // a new client: the old one's pooled connection is to the killed process (the JDK's client has
            // been seen to wait forever for an answer on such a connection instead of failing it)
            http = HttpClient.newHttpClient();
            Exception down = org.junit.jupiter.api.Assertions.assertThrows(
                    java.io.IOException.class, () -> http.send(
                            request(registry.url() + "/schemas/ids/" + id).build(),
                            HttpResponse.BodyHandlers.ofString()));
            assertTrue(down instanceof java.net.ConnectException || down.getCause() != null, down.toString());
            registry.restart();

            HttpResponse<String> byId = http.send(
                    request(registry.url() + "/schemas/ids/" + id).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, byId.statusCode(), byId.body());
            assertTrue(byId.body().contains("Order"), byId.body());
        }
    }
}
