package io.streamsplit.boot.job.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a run carries so that the next instance knows whose and which version it is. */
class JobLabelsTest {

    private static final JobFingerprint.Parts PARTS = new JobFingerprint.Parts("ops", "conf", "jars");

    @Test
    void aRunCarriesTheApplicationsVersionWhenItHasOne() {
        JobLabels labels = JobLabels.of("orders", PARTS, "com.example.OrdersApplication", "1.5.0");

        assertThat(labels.version()).isEqualTo("1.5.0");
        assertThat(labels.owner()).isEqualTo("com.example.OrdersApplication");
        assertThat(labels.fingerprint()).isEqualTo(PARTS.fingerprint());
    }

    @Test
    void withoutAVersionTheRunSaysNothingAboutIt() {
        JobLabels labels = JobLabels.of("orders", PARTS, "com.example.OrdersApplication", null);

        assertThat(labels.version()).isNull();
        assertThat(labels.values()).doesNotContainKey(JobLabels.VERSION);
    }
}
