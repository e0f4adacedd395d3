package io.streamsplit.connector.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which kafka-clients an exactly-once sink may run on: any version of a tested line, and for any other the
 * tested version a Spring Boot user pins instead.
 */
class ExactlyOnceKafkaClientsTest {

    @Test
    void everyVersionOfATestedLineIsTested() {
        assertThat(ExactlyOnceKafkaClients.untested("4.1.0")).isEmpty();
        assertThat(ExactlyOnceKafkaClients.untested("4.2.2")).isEmpty();
        assertThat(ExactlyOnceKafkaClients.untested("4.4.1")).isEmpty();
        assertThat(ExactlyOnceKafkaClients.testedLines()).isEqualTo("4.1.x, 4.2.x, 4.4.x");
    }

    @Test
    void theVersionIsReadFromTheKafkaClientsJarOnTheClassPath() {
        assertThat(ExactlyOnceKafkaClients.version())
                .isEqualTo(org.apache.kafka.common.utils.AppInfoParser.getVersion())
                .matches("\\d+\\.\\d+\\.\\d+.*");
    }

    @Test
    void anUntestedVersionIsToldTheNewestTestedVersionBelowIt() {
        assertThat(ExactlyOnceKafkaClients.untested("4.3.2")).contains("4.2.2");
        assertThat(ExactlyOnceKafkaClients.untested("4.5.0")).contains("4.4.0");
        assertThat(ExactlyOnceKafkaClients.untested("5.0.0-SNAPSHOT")).contains("4.4.0");
        assertThat(ExactlyOnceKafkaClients.untested("4.0.2")).contains("4.1.2");
        assertThat(ExactlyOnceKafkaClients.untested("unknown")).contains("4.1.2");
    }
}
