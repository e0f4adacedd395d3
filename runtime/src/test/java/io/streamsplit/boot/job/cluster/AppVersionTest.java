package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which of two deploys of one application is the newer: what keeps an old instance from upgrading back. */
class AppVersionTest {

    @ParameterizedTest(name = "{0} is older than {1}")
    @CsvSource({
        "1.4.2, 1.5.0",
        "1.9.2, 1.10.0",
        "1.5.0-SNAPSHOT, 1.5.0",
        "1.5.0-RC1, 1.5.0",
        "1.5.0-RC1, 1.5.0-RC2",
        "1.5, 1.5.1",
        "2026.12.1, 2026.12.10"
    })
    void olderComesFirst(String older, String newer) {
        assertThat(AppVersion.compare(older, newer)).isNegative();
        assertThat(AppVersion.compare(newer, older)).isPositive();
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({"1.5, 1.5.0", "1.5.0, 1.5.0", "1.5.0-SNAPSHOT, 1.5.0-snapshot"})
    void sameVersions(String a, String b) {
        assertThat(AppVersion.compare(a, b)).isZero();
    }
}
