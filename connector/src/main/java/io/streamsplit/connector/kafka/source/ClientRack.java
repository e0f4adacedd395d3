package io.streamsplit.connector.kafka.source;

import io.streamsplit.connector.kafka.source.InvalidKafkaSourceException.Setting;
import java.util.regex.Pattern;
import org.apache.flink.util.function.SerializableSupplier;

/**
 * The rack a source's readers fetch from ({@code client.rack}, for Kafka's rack-aware fetching from the
 * closest replica), written as {@link StreamSplitKafkaSourceBuilder#setClientRack(String)} takes it: a rack
 * id, the same for every reader, or {@code env:NAME}, read from each TaskManager's environment when its
 * reader starts (TaskManagers of one job usually run in different zones).
 */
final class ClientRack {

    static final String ENV_PREFIX = "env:";
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private ClientRack() {}

    /** {@code rack} as a supplier run on the TaskManager; fails naming {@link Setting#CLIENT_RACK} when unusable. */
    static SerializableSupplier<String> parse(String rack) {
        InvalidKafkaSourceException.requireText(rack, Setting.CLIENT_RACK, "client rack");
        if (!rack.startsWith(ENV_PREFIX)) {
            return new Fixed(rack.strip());
        }
        String variable = rack.substring(ENV_PREFIX.length()).strip();
        if (!VARIABLE.matcher(variable).matches()) {
            throw new InvalidKafkaSourceException(
                    Setting.CLIENT_RACK,
                    rack,
                    "Client rack '" + rack + "' does not name an environment variable after 'env:'",
                    "'" + variable + "' is not an environment variable name",
                    "Write {CLIENT_RACK} as env:NAME (e.g. env:TM_ZONE, set on every TaskManager) or as a rack id"
                            + " (e.g. eu-west-1a).");
        }
        return new EnvironmentVariable(variable);
    }

    /** One rack for every reader. */
    private record Fixed(String rack) implements SerializableSupplier<String> {
        @Override
        public String get() {
            return rack;
        }

        @Override
        public String toString() {
            return "rack '" + rack + "'";
        }
    }

    /** The rack each TaskManager's environment names. */
    private record EnvironmentVariable(String name) implements SerializableSupplier<String> {
        @Override
        public String get() {
            return System.getenv(name);
        }

        @Override
        public String toString() {
            return "environment variable " + name;
        }
    }
}
