package io.streamsplit.boot.autoconfigure;

import io.openlineage.client.transports.ConsoleTransport;
import io.openlineage.client.transports.FileConfig;
import io.openlineage.client.transports.FileTransport;
import io.openlineage.client.transports.HttpConfig;
import io.openlineage.client.transports.HttpTransport;
import io.openlineage.client.transports.Transport;
import io.streamsplit.boot.autoconfigure.StreamSplitProperties.Lineage.OpenLineage;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.job.StreamSplitJob;
import io.streamsplit.boot.lineage.OpenLineageEvents;
import java.net.URI;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code streamsplit.lineage.openlineage.transport}: with OpenLineage's Java client on the classpath, the job's
 * run events go to the console, a file or an HTTP lineage server ({@link OpenLineageEvents}); without it, the
 * start fails saying which dependency to add.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(LineageConfiguration.TRANSPORT)
class LineageConfiguration {

    static final String PREFIX = "streamsplit.lineage.openlineage.";
    static final String TRANSPORT = PREFIX + "transport";
    private static final String CLIENT = "io.openlineage.client.OpenLineageClient";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = CLIENT)
    static class WithOpenLineage {

        @Bean
        @ConditionalOnMissingBean
        OpenLineageEvents streamSplitOpenLineageEvents(StreamSplitProperties properties, StreamSplitJob job) {
            OpenLineage settings = properties.getLineage().getOpenlineage();
            return new OpenLineageEvents(job, settings.getNamespace(), transport(settings));
        }

        private static Transport transport(OpenLineage settings) {
            StreamSplitProperties.Lineage.OpenLineageTransport kind = settings.getTransport();
            if (kind == null) {
                throw new IllegalStateException(TRANSPORT + " is unset");
            }
            return switch (kind) {
                case CONSOLE -> new ConsoleTransport();
                case FILE -> {
                    if (settings.getLocation() == null || settings.getLocation().isBlank()) {
                        throw new InvalidStreamSplitConfigurationException(
                                PREFIX + "location",
                                settings.getLocation(),
                                "the file transport appends each event to a file, and none is named",
                                "Set " + PREFIX + "location, e.g. /var/log/streamsplit/lineage.jsonl.");
                    }
                    yield new FileTransport(new FileConfig(settings.getLocation()));
                }
                case HTTP -> {
                    URI url;
                    try {
                        url = URI.create(String.valueOf(settings.getUrl()));
                    } catch (IllegalArgumentException e) {
                        url = null;
                    }
                    if (settings.getUrl() == null || url == null || url.getScheme() == null) {
                        throw new InvalidStreamSplitConfigurationException(
                                PREFIX + "url",
                                settings.getUrl(),
                                "the http transport posts events to a lineage server, and no absolute URL names it",
                                "Set " + PREFIX + "url, e.g. http://marquez:5000.");
                    }
                    HttpConfig http = new HttpConfig();
                    http.setUrl(url);
                    http.setEndpoint(settings.getEndpoint());
                    yield new HttpTransport(http);
                }
            };
        }
    }

    /** The transport is set but the client is not there: say which dependency to add. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(CLIENT)
    static class WithoutOpenLineage {

        @Bean
        Object streamSplitOpenLineageMissing(StreamSplitProperties properties) {
            throw new InvalidStreamSplitConfigurationException(
                    TRANSPORT,
                    properties.getLineage().getOpenlineage().getTransport(),
                    "OpenLineage events need OpenLineage's Java client, which is not on the classpath",
                    "Add io.openlineage:openlineage-java (the version the StreamSplit BOM names), or unset " + TRANSPORT
                            + ".");
        }
    }
}
