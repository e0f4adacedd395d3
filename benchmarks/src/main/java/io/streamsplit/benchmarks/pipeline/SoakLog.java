package io.streamsplit.benchmarks.pipeline;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a soak run reads from the app's logs, minute by minute: each call of {@link #read()} takes the
 * lines written since the last one — completed checkpoints (duration and size, from Flink's
 * {@code CheckpointCoordinator} INFO line), WARN and ERROR lines (Spring Boot's console format) and the
 * heap after each garbage collection ({@code -Xlog:gc} lines). Distinct WARN/ERROR messages are kept
 * with their counts for the report.
 */
final class SoakLog {

    /** {@code Completed checkpoint 12 for job … (1168 bytes, checkpointDuration=54 ms, finalizationTime=30 ms).} */
    static final Pattern CHECKPOINT =
            Pattern.compile("Completed checkpoint \\d+ for job \\S+ \\((\\d+) bytes, checkpointDuration=(\\d+) ms");

    /** A Spring Boot console line at WARN or ERROR: {@code 2026-12-04T10:42:55.195Z  WARN 31276 --- [app] [thread] logger : message}. */
    static final Pattern LEVEL = Pattern.compile("^\\d{4}-\\d\\d-\\d\\dT\\S+\\s+(WARN|ERROR)\\s+\\d+\\s+---\\s+(.*)$");

    /** {@code [12.345s][info][gc] GC(7) Pause Full (System.gc()) 310M->84M(1024M) 201.433ms}: the heap after. */
    static final Pattern GC = Pattern.compile("\\bPause (.+?) (\\d+)M->(\\d+)M\\((\\d+)M\\)");

    /** The lines of one minute. */
    record Minute(
            List<Double> checkpointMillis,
            List<Long> checkpointBytes,
            int warnings,
            int errors,
            List<Double> heapAfterGcMb,
            double heapAfterFullGcMb) {}

    private final Tail app;
    private final Tail gc;
    private final Map<String, Integer> warnings = new TreeMap<>();
    private final Map<String, Integer> errors = new TreeMap<>();

    SoakLog(Path appLog, Path gcLog) {
        this.app = new Tail(appLog);
        this.gc = new Tail(gcLog);
    }

    /** The lines written since the last call. */
    Minute read() throws IOException {
        List<Double> millis = new ArrayList<>();
        List<Long> bytes = new ArrayList<>();
        int warn = 0;
        int error = 0;
        for (String line : app.lines()) {
            Matcher checkpoint = CHECKPOINT.matcher(line);
            if (checkpoint.find()) {
                bytes.add(Long.parseLong(checkpoint.group(1)));
                millis.add(Double.parseDouble(checkpoint.group(2)));
                continue;
            }
            Matcher level = LEVEL.matcher(line);
            if (level.find()) {
                String message = message(level.group(2));
                if (level.group(1).equals("WARN")) {
                    warn++;
                    warnings.merge(message, 1, Integer::sum);
                } else {
                    error++;
                    errors.merge(message, 1, Integer::sum);
                }
            }
        }
        List<Double> afterGc = new ArrayList<>();
        double afterFullGc = Double.NaN;
        for (String line : gc.lines()) {
            Matcher m = GC.matcher(line);
            if (m.find()) {
                double after = Double.parseDouble(m.group(3));
                afterGc.add(after);
                if (m.group(1).startsWith("Full")) {
                    afterFullGc = after;
                }
            }
        }
        return new Minute(millis, bytes, warn, error, afterGc, afterFullGc);
    }

    /** Distinct WARN messages (logger and message, without thread and time) and how often each came. */
    Map<String, Integer> warnings() {
        return warnings;
    }

    /** Distinct ERROR messages and how often each came. */
    Map<String, Integer> errors() {
        return errors;
    }

    /** {@code [app] [thread] logger : message} → {@code logger : message}, cut at 160 characters. */
    static String message(String rest) {
        String withoutBrackets = rest.replaceFirst("^(\\[[^]]*]\\s*)+", "");
        return withoutBrackets.length() > 160 ? withoutBrackets.substring(0, 160) + "…" : withoutBrackets;
    }

    /** The complete lines appended to a file since the last call (a line still being written waits). */
    static final class Tail {
        private final Path file;
        private long position;

        Tail(Path file) {
            this.file = file;
        }

        List<String> lines() throws IOException {
            if (!Files.exists(file)) {
                return List.of();
            }
            try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
                long length = in.length();
                if (length <= position) {
                    return List.of();
                }
                byte[] bytes = new byte[(int) Math.min(length - position, Integer.MAX_VALUE - 16)];
                in.seek(position);
                in.readFully(bytes);
                int end = bytes.length;
                while (end > 0 && bytes[end - 1] != '\n') {
                    end--;
                }
                position += end;
                return new String(bytes, 0, end, StandardCharsets.UTF_8).lines().toList();
            }
        }
    }
}
