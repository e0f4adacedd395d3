package io.streamsplit.embedded.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node's own small filesystem fills to the last byte and makes room again, as a full disk does. */
class SmallDiskTest {

    @Test
    void fillsToTheLastByteAndFreesWhatItWrote(@TempDir Path dir) throws IOException {
        assumeTrue(
                SmallDisk.available(),
                "mounting a filesystem needs Linux and root; ReplicatedKafkaCluster.canLimitDisks() is false here");
        Path data = dir.resolve("node-1");
        SmallDisk disk = SmallDisk.mount(data, 4L * 1024 * 1024);
        try {
            Files.writeString(data.resolve("segment.log"), "x".repeat(100_000));

            long written = disk.fill();

            assertThat(written).as("the rest of 4 MB").isBetween(3_500_000L, 4L * 1024 * 1024 - 100_000);
            assertThatThrownBy(() -> Files.writeString(data.resolve("more.log"), "x".repeat(10_000)))
                    .hasMessageContaining("No space left on device");
            disk.free();
            Files.writeString(data.resolve("more.log"), "x".repeat(10_000));
            assertThat(Files.readString(data.resolve("segment.log"))).hasSize(100_000);
        } finally {
            disk.unmount();
        }
        assertThat(data.resolve("segment.log")).as("gone with the filesystem").doesNotExist();
    }
}
