package io.streamsplit.embedded.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.common.utils.Time;

/**
 * One node of a {@link ReplicatedKafkaCluster} in a JVM of its own: Kafka's own KRaft server (broker and
 * controller) from a properties file, its log directory formatted on first start. It prints {@value #READY}
 * once the server runs, shuts the server down on SIGTERM (a controlled shutdown, as Kafka's start script's
 * hook does), and exits when its standard input closes, so a test JVM that dies takes its nodes with it.
 * Internal to the test cluster; started by it, not by users.
 */
public final class KafkaClusterNode {

    static final String READY = "KAFKA NODE READY";
    /** Printed before {@link #READY}, followed by the Kafka version the node runs. */
    static final String VERSION = "KAFKA NODE VERSION ";

    private KafkaClusterNode() {}

    /** {@code <server.properties> <cluster id> <transaction version or -1>}. */
    public static void main(String[] args) throws Exception {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]))) {
            properties.load(in);
        }
        int nodeId = Integer.parseInt(properties.getProperty("node.id"));
        short transactionVersion = Short.parseShort(args[2]);
        BrokerSupport.format(
                Path.of(properties.getProperty("log.dirs")),
                nodeId,
                args[1],
                transactionVersion < 0 ? null : transactionVersion);
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(properties, false), Time.SYSTEM);
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "kafka-node-shutdown"));
        server.startup();
        System.out.println(VERSION + AppInfoParser.getVersion());
        System.out.println(READY);
        System.out.flush();
        awaitEndOfInput(System.in);
        System.exit(0); // the hook shuts the server down
    }

    private static void awaitEndOfInput(InputStream in) throws IOException {
        while (in.read() >= 0) {
            // the cluster holds the pipe open while the node should run
        }
    }
}
