package io.streamsplit.boot.kafka;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/**
 * Whether anything listens at a Kafka cluster's bootstrap servers, asked with plain TCP before a Kafka client
 * waits for an answer: so that a start-up can give a slow broker the long timeout Kafka's own clients give it
 * (a broker still starting beside the application, a loaded machine) and still fail at once where nothing
 * listens (a wrong port, a broker that is not there: the connection is refused).
 */
public final class KafkaListeners {

    /** How long one TCP connection attempt may take: a dropped packet is not a refusal. */
    private static final Duration CONNECT = Duration.ofSeconds(3);

    private KafkaListeners() {}

    /**
     * True when every one of {@code servers} ({@code host:port,…}) refused the connection; false when one accepted
     * it, or when one could not be told (a connection attempt timed out, a malformed entry): then the Kafka
     * client's own timeout decides.
     */
    public static boolean nothingListens(String servers) {
        for (String server : servers.split(",")) {
            String trimmed = server.trim();
            int colon = trimmed.lastIndexOf(':');
            if (colon <= 0) {
                return false;
            }
            String host = trimmed.substring(0, colon).replace("[", "").replace("]", "");
            int port;
            try {
                port = Integer.parseInt(trimmed.substring(colon + 1));
            } catch (NumberFormatException malformed) {
                return false;
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), (int) CONNECT.toMillis());
                return false;
            } catch (ConnectException refused) {
                // nothing listens at this one: try the next
            } catch (IOException cannotTell) {
                return false;
            }
        }
        return true;
    }
}
