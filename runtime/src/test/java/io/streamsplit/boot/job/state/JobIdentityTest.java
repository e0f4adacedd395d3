package io.streamsplit.boot.job.state;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.JobID;
import org.junit.jupiter.api.Test;

/**
 * Every start of every replica, on every host, must arrive at the same job ids for a job name:
 * replicas find each other's runs by them, and Flink's refusal of a second submission of one id
 * decides their races.
 */
class JobIdentityTest {

    @Test
    void aJobNameGivesTheSameIdsEverywhereAndAnotherNameOthers() {
        JobIdentity orders = JobIdentity.of("orders");

        // a constant: a change here would orphan every job already running under the old ids
        assertThat(orders.jobId(1).toHexString())
                .isEqualTo(JobIdentity.of("orders").jobId(1).toHexString());
        assertThat(JobIdentity.of("orders").family()).isEqualTo(orders.family());
        assertThat(JobIdentity.of("payments").family()).isNotEqualTo(orders.family());
    }

    @Test
    void eachGenerationIsARunOfTheJobAndSaysWhichOneItIs() {
        JobIdentity orders = JobIdentity.of("orders");
        JobID third = orders.jobId(3);

        assertThat(orders.owns(third)).isTrue();
        assertThat(orders.generation(third)).isEqualTo(3);
        assertThat(third).isNotEqualTo(orders.jobId(4));
        assertThat(third.toHexString()).endsWith("0000000000000003");
        assertThat(JobIdentity.of("payments").owns(third)).isFalse();
        assertThat(orders.owns(new JobID())).isFalse();
    }

    @Test
    void theSavepointPrefixIsTheOneFlinkGivesTheSavepointsOfEveryRun() {
        JobIdentity orders = JobIdentity.of("orders");

        // Flink names a savepoint's directory savepoint-<first 6 hex digits of the job id>-<random>
        for (long generation : new long[] {1, 2, 1_000}) {
            String flinksName =
                    "savepoint-" + orders.jobId(generation).toHexString().substring(0, 6) + "-a1b2c3d4";
            assertThat(flinksName).startsWith(orders.savepointPrefix());
        }
        assertThat(JobIdentity.of("payments").savepointPrefix()).isNotEqualTo(orders.savepointPrefix());
    }
}
