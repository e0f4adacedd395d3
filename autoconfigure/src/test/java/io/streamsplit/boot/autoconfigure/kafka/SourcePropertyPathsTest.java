package io.streamsplit.boot.autoconfigure.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamsplit.connector.kafka.source.InvalidKafkaSourceException.Setting;
import io.streamsplit.connector.kafka.source.option.SourceOption;
import io.streamsplit.connector.kafka.source.option.SourceOptions;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A rule the connector's builder rejects is reported under a YAML key; every builder setting maps to a
 * key a source really has, so a new setting named like its property needs no entry in the table.
 */
class SourcePropertyPathsTest {

    @Test
    void everyBuilderSettingNamesAPropertyOfASource() throws Exception {
        Set<String> keys = Arrays.stream(Introspector.getBeanInfo(KafkaSourceProperties.class, Object.class)
                        .getPropertyDescriptors())
                .map(PropertyDescriptor::getName)
                .map(name -> name.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT))
                .collect(Collectors.toSet());
        for (Setting setting : Setting.values()) {
            String key = SourcePropertyPaths.key(setting);
            switch (setting) {
                case NAME, OPTION -> assertThat(key).isEmpty(); // an option's key comes with the failure
                case CONTROL_TOPIC -> assertThat(key).isEqualTo("streamsplit.kafka.control-topic");
                default ->
                    assertThat(key.replaceFirst("^properties\\..*", "properties"))
                            .as("the YAML key of builder setting " + setting)
                            .isIn(keys);
            }
        }
        for (SourceOption<?> option : SourceOptions.all()) {
            assertThat(keys)
                    .as("a declared option is no property of its own too")
                    .doesNotContain(option.key());
        }
        assertThat(SourcePropertyPaths.key(Setting.CLIENT_RACK)).isEqualTo("client-rack");
        assertThat(SourcePropertyPaths.key(Setting.OFFSET_RESET_STRATEGY)).isEqualTo("on-offset-out-of-range");
    }
}
