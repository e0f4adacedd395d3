package io.streamsplit.boot.flink.remote;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.runtime.util.EnvironmentInformation;

/**
 * Remote mode: before submitting, asks the cluster's REST API ({@code GET /config}) for its Flink
 * version. A job graph built by one Flink minor version cannot be read by another, and the
 * cluster's own error for that is a deserialization stack trace; this fails startup saying what to
 * change, as a cluster that cannot be reached does.
 */
public final class FlinkVersionCheck {

    private static final Pattern VERSION_FIELD = Pattern.compile("\"flink-version\"\\s*:\\s*\"([^\"]+)\"");
    private static final String PROPERTY = "streamsplit.flink.remote.host";

    private FlinkVersionCheck() {}

    /** Throws when the cluster at {@code restBase} cannot be reached or runs another Flink major.minor. */
    public static void requireCompatible(URI restBase) throws InterruptedException {
        HttpResponse<String> response;
        try {
            response = PreflightRest.get(restBase, "/config");
        } catch (IOException e) {
            throw new InvalidStreamSplitConfigurationException(
                    PROPERTY,
                    restBase.getAuthority(),
                    "cannot reach the Flink cluster's REST API at " + restBase + " ("
                            + (e.getMessage() != null
                                    ? e.getMessage()
                                    : e.getClass().getSimpleName() + ": connection refused or closed")
                            + ")",
                    "Start the JobManager, or point streamsplit.flink.remote.host/port at its REST address"
                            + " (rest.address/rest.port, 8081 by default).",
                    e);
        }
        Matcher version = VERSION_FIELD.matcher(response.body());
        if (response.statusCode() != 200 || !version.find()) {
            throw new InvalidStreamSplitConfigurationException(
                    PROPERTY,
                    restBase.getAuthority(),
                    "the server at " + restBase + " did not report a Flink version on GET /config (HTTP "
                            + response.statusCode() + ")",
                    "Point streamsplit.flink.remote.host/port at a Flink JobManager's REST endpoint.");
        }
        check(version.group(1), EnvironmentInformation.getVersion(), restBase);
    }

    static void check(String clusterVersion, String clientVersion, URI restBase) {
        if (!majorMinor(clusterVersion).equals(majorMinor(clientVersion))) {
            throw new InvalidStreamSplitConfigurationException(
                    PROPERTY,
                    restBase.getAuthority(),
                    "the Flink cluster at " + restBase + " runs Flink " + clusterVersion + " but this application is"
                            + " built with Flink " + clientVersion
                            + "; a job graph only runs on the Flink minor version"
                            + " that built it",
                    "Run a " + majorMinor(clientVersion) + ".x cluster, or build the application with flink.version "
                            + clusterVersion + ".");
        }
    }

    /** {@code 2.3} of {@code 2.3.1}: jobs run only on the Flink minor that built them. */
    public static String majorMinor(String version) {
        String[] parts = version.split("\\.");
        return parts.length < 2 ? version : parts[0] + "." + parts[1];
    }
}
