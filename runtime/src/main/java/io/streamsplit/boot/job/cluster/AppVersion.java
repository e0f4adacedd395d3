package io.streamsplit.boot.job.cluster;

import java.util.Locale;

/**
 * Orders application versions as Maven does for the common forms: numbers compare as numbers ({@code 1.10.0} after
 * {@code 1.9.2}), a missing part is 0 ({@code 1.4} equals {@code 1.4.0}), and a release comes after its
 * qualified forms ({@code 1.5.0-SNAPSHOT} and {@code 1.5.0-RC1} before {@code 1.5.0}); two qualifiers compare as
 * text. Enough to tell which of two deploys of one application is the newer.
 *
 * <pre>{@code
 * AppVersion.compare("1.4.2", "1.10.0"); // < 0
 * }</pre>
 */
final class AppVersion {

    private AppVersion() {}

    /** Negative when {@code a} is older than {@code b}, 0 when the same, positive when newer. */
    static int compare(String a, String b) {
        String[] left = split(a);
        String[] right = split(b);
        int numbers = Math.max(numeric(left), numeric(right));
        for (int i = 0; i < numbers; i++) {
            int diff = Long.compare(number(left, i), number(right, i));
            if (diff != 0) {
                return diff;
            }
        }
        String qa = qualifier(a);
        String qb = qualifier(b);
        if (qa.isEmpty() || qb.isEmpty()) {
            return qa.isEmpty() == qb.isEmpty() ? 0 : qa.isEmpty() ? 1 : -1; // the release is newer
        }
        return qa.compareTo(qb);
    }

    private static String[] split(String version) {
        int dash = version.indexOf('-');
        return (dash < 0 ? version : version.substring(0, dash)).trim().split("\\.");
    }

    private static int numeric(String[] parts) {
        int n = 0;
        while (n < parts.length && parts[n].matches("\\d{1,18}")) {
            n++;
        }
        return n;
    }

    private static long number(String[] parts, int i) {
        return i < numeric(parts) ? Long.parseLong(parts[i]) : 0;
    }

    private static String qualifier(String version) {
        int dash = version.indexOf('-');
        return dash < 0 ? "" : version.substring(dash + 1).toLowerCase(Locale.ROOT);
    }
}
