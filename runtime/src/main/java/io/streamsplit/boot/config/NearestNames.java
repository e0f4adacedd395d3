package io.streamsplit.boot.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** "Did you mean ...?": the known names closest to a mistyped one, by edit distance. */
public final class NearestNames {

    private NearestNames() {}

    /**
     * Up to {@code limit} of {@code candidates} within {@code maxDistance} edits of {@code wanted}, or
     * containing it (three characters or more), ignoring case; nearest first.
     */
    public static List<String> nearest(String wanted, Collection<String> candidates, int maxDistance, int limit) {
        String key = wanted.toLowerCase(Locale.ROOT);
        return candidates.stream()
                .filter(candidate -> distance(candidate.toLowerCase(Locale.ROOT), key) <= maxDistance
                        || key.length() >= 3
                                && candidate.toLowerCase(Locale.ROOT).contains(key))
                .sorted(Comparator.comparingInt((String candidate) -> distance(candidate.toLowerCase(Locale.ROOT), key))
                        .thenComparing(Comparator.naturalOrder()))
                .limit(limit)
                .toList();
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    public static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
