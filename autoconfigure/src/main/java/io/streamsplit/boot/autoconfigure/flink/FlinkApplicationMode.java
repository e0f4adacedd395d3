package io.streamsplit.boot.autoconfigure.flink;

import static io.streamsplit.boot.flink.remote.FlinkVersionCheck.majorMinor;

import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.flink.FlinkMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Properties;
import org.apache.flink.client.program.StreamContextEnvironment;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Application mode: Flink started the application (its JobManager runs the application's {@code main},
 * as the Flink Kubernetes Operator and {@code bin/standalone-job.sh} do, or {@code flink run} does in
 * its client) and provides the environment the job is executed on. Flink installs that environment
 * before it calls {@code main}; this is how the application recognises it.
 */
public final class FlinkApplicationMode {

    private FlinkApplicationMode() {}

    /** Whether Flink started this application and provides its execution environment. */
    public static boolean isRunByFlink() {
        // Flink runs a program's main with the program's own (user code) class loader as context
        // class loader: a cheap first look that spares every other start creating an environment
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null
                && context.getClass().getName().startsWith("org.apache.flink.")
                && StreamExecutionEnvironment.getExecutionEnvironment() instanceof StreamContextEnvironment;
    }

    /**
     * The environment Flink provides, with the job's settings over the cluster's.
     *
     * @throws InvalidStreamSplitConfigurationException when Flink did not start the application
     */
    public static StreamExecutionEnvironment environment(Configuration job) {
        if (!isRunByFlink()) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.mode",
                    "application",
                    "application mode runs the job on the environment Flink provides when Flink starts the"
                            + " application, and this application was started by something else (java -jar, an IDE)",
                    "Hand the jar to Flink (a FlinkDeployment's job.jarURI, bin/standalone-job.sh, flink run), or"
                            + " use streamsplit.flink.mode=embedded (an in-process cluster) or remote (a session"
                            + " cluster) when you start it yourself.");
        }
        checkFlinkVersion(builtFor(), EnvironmentInformation.getVersion());
        return StreamExecutionEnvironment.getExecutionEnvironment(job);
    }

    /**
     * Flink loads its own classes from the cluster's image, not from the application's jars: a
     * starter built for another Flink minor would meet classes it was not compiled against and fail
     * somewhere in the job with a linkage error. This says so at startup.
     */
    static void checkFlinkVersion(String builtFor, String running) {
        if (!majorMinor(builtFor).equals(majorMinor(running))) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.mode",
                    "application",
                    "Flink " + running + " started this application, but it is built with StreamSplit for Flink "
                            + builtFor + ", and in application mode Flink's classes come from the cluster's image",
                    "Run it on a Flink " + majorMinor(builtFor) + ".x image (a FlinkDeployment's image and flinkVersion"
                            + " v" + majorMinor(builtFor).replace('.', '_') + "), or build the application with"
                            + " a StreamSplit for Flink " + majorMinor(running) + ".");
        }
    }

    /** The Flink version this starter was built against (written into the jar by the build). */
    static String builtFor() {
        Properties properties = new Properties();
        try (InputStream in =
                FlinkApplicationMode.class.getResourceAsStream("/META-INF/streamsplit/flink-version.properties")) {
            if (in == null) {
                throw new IllegalStateException("META-INF/streamsplit/flink-version.properties is missing");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("flink.version");
    }

    /**
     * Fails when Flink started the application but the configuration asks for another mode: an embedded
     * MiniCluster inside Flink's JobManager, or a job sent to yet another cluster, is never meant.
     */
    public static void checkNotRunByFlink(FlinkMode mode) {
        if (mode != FlinkMode.APPLICATION && isRunByFlink()) {
            throw new InvalidStreamSplitConfigurationException(
                    "streamsplit.flink.mode",
                    mode.name().toLowerCase(java.util.Locale.ROOT),
                    "Flink started this application (application mode), so its job belongs on the cluster that"
                            + " started it",
                    "Remove streamsplit.flink.mode (Flink's start selects application mode) or set it to"
                            + " application.");
        }
    }

    /** The REST API of the JobManager the application runs in. */
    public static URI restAddress(ReadableConfig configuration) {
        String host = configuration.getOptional(RestOptions.ADDRESS).orElse("localhost");
        return URI.create("http://" + host + ":" + configuration.get(RestOptions.PORT));
    }
}
