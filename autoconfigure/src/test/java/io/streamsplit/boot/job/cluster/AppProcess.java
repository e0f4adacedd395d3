package io.streamsplit.boot.job.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One instance of an application in its own JVM, as a pod or a systemd service runs it: killed with
 * SIGKILL ({@code kill -9}: no shutdown hook runs) or stopped with SIGTERM (Spring's graceful
 * shutdown), its log in a file the test reads.
 */
final class AppProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;
    private final long startedAt = System.nanoTime();

    private AppProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code main} with the test classpath and {@code args} ({@code --key=value}). */
    static AppProcess start(String name, Path logDirectory, Class<?> main, List<String> args) {
        return start(name, logDirectory, main, args, List.of());
    }

    /**
     * Starts {@code main} with {@code first} ahead of the test classpath (a jar of the application's own
     * classes makes it a packaged run, as {@code java -jar} is) and {@code args}.
     */
    static AppProcess start(String name, Path logDirectory, Class<?> main, List<String> args, List<Path> first) {
        try {
            Files.createDirectories(logDirectory);
            Path log = logDirectory.resolve(name + ".log");
            Path tmp = Files.createDirectories(Path.of("target", "tmp")).toAbsolutePath();
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx384m",
                    "-Xss512k",
                    "-XX:+UseSerialGC",
                    "-Djava.io.tmpdir=" + tmp,
                    "-cp",
                    classpath(first),
                    main.getName()));
            command.addAll(args);
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            return new AppProcess(name, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start application " + name, e);
        }
    }

    private static String classpath(List<Path> first) {
        List<String> entries = new ArrayList<>();
        first.forEach(path -> entries.add(path.toAbsolutePath().toString()));
        entries.add(System.getProperty("java.class.path"));
        return String.join(java.io.File.pathSeparator, entries);
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until the log has a line containing {@code text}; returns the seconds since the JVM started. */
    double awaitLog(String text, Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (System.nanoTime() < deadline) {
            if (log().contains(text)) {
                return (System.nanoTime() - startedAt) / 1e9;
            }
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited (" + process.exitValue() + ") before logging '" + text
                        + "'; its log " + log + " ends:\n" + tail());
            }
            pause();
        }
        throw new AssertionError(
                name + " did not log '" + text + "' within " + atMost + "; its log " + log + " ends:\n" + tail());
    }

    /** The seconds from this JVM's start to {@code nanoTime} (a {@link System#nanoTime()} of the test's). */
    double secondsSinceStart(long nanoTime) {
        return (nanoTime - startedAt) / 1e9;
    }

    /** Waits until the process has exited; returns its exit code. */
    int awaitExit(Duration atMost) {
        try {
            if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(name + " did not exit within " + atMost + "; its log ends:\n" + tail());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code kill -9}: the JVM dies at once, no shutdown hook runs. */
    void kill9() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(20));
    }

    /** {@code kill} (SIGTERM): Spring's graceful shutdown runs; waits until the JVM has exited. */
    void sigterm() {
        process.destroy();
        awaitExit(Duration.ofSeconds(90));
    }

    String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    String tail() {
        List<String> lines = log().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(20));
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
