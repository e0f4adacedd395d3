package io.streamsplit.embedded.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A filesystem of its own and of a fixed size for one node's data directory (a Linux {@code tmpfs}), so that a
 * test can fill it as a disk fills in production: a file written until the filesystem answers "no space left on
 * device", and deleted again to make room. Mounting needs Linux and root (or {@code CAP_SYS_ADMIN}); {@link
 * #available()} says whether this machine allows it.
 */
final class SmallDisk {

    private static final String FILLER = "disk-filler";

    private final Path directory;
    private final long bytes;

    private SmallDisk(Path directory, long bytes) {
        this.directory = directory;
        this.bytes = bytes;
    }

    /** Mounts a new filesystem of {@code bytes} at {@code directory} (created when missing). */
    static SmallDisk mount(Path directory, long bytes) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create " + directory, e);
        }
        run("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", directory.toString());
        return new SmallDisk(directory, bytes);
    }

    /** Whether this machine lets a test mount a filesystem: Linux, and the rights to mount. */
    static boolean available() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return false;
        }
        Path probe = null;
        try {
            probe = Files.createTempDirectory("small-disk-probe");
            run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe.toString());
            run("umount", probe.toString());
            return true;
        } catch (IOException | IllegalStateException notAllowed) {
            return false;
        } finally {
            if (probe != null) {
                BrokerSupport.deleteRecursively(probe);
            }
        }
    }

    /** Writes a file until the filesystem is full; returns the bytes it took. */
    long fill() {
        ByteBuffer block = ByteBuffer.allocate(64 * 1024);
        long written = 0;
        try (FileChannel out =
                FileChannel.open(directory.resolve(FILLER), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            out.position(out.size());
            while (true) {
                block.clear();
                written += out.write(block);
            }
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left")) {
                throw new UncheckedIOException("Could not fill " + directory, full);
            }
            return written;
        }
    }

    /** Deletes what {@link #fill()} wrote. */
    void free() {
        try {
            Files.deleteIfExists(directory.resolve(FILLER));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not free " + directory, e);
        }
    }

    /** Unmounts the filesystem; what was on it is gone. */
    void unmount() {
        run("umount", "-l", directory.toString());
    }

    @Override
    public String toString() {
        return directory + " (" + bytes / (1024 * 1024) + " MB)";
    }

    private static void run(String... command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("'" + String.join(" ", List.of(command)) + "' failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not run '" + String.join(" ", command) + "': " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted running " + String.join(" ", command), e);
        }
    }
}
