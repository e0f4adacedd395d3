package io.streamsplit.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs hold together as pages: no section appears twice on a page (a botched edit once copied 700 lines of
 * docs/benchmarks.md into itself), and every link to a page or to a section ({@code [x](#anchor)},
 * {@code [x](page.md#anchor)}) lands on one that exists, with GitHub's anchors.
 */
class DocsLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void noPageRepeatsASectionAndEveryLinkLands() throws IOException {
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (Path page : pages()) {
            anchors.put(page, anchors(page, problems));
        }
        for (Path page : pages()) {
            Matcher link = LINK.matcher(withoutCode(Files.readString(page)));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // http(s), mailto: not checked here
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path linked =
                        file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(linked)) {
                    problems.add(ROOT.relativize(page) + ": link to " + target + " — no such file");
                } else if (hash >= 0
                        && anchors.containsKey(linked)
                        && !anchors.get(linked).contains(target.substring(hash + 1))) {
                    problems.add(ROOT.relativize(page) + ": link to " + target + " — no such section");
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** GitHub's anchors of a page's headings; a heading that repeats one at the same level is a problem. */
    private static Set<String> anchors(Path page, List<String> problems) throws IOException {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : withoutCode(Files.readString(page)).split("\n")) {
            if (!line.matches("^#{1,6} .*")) {
                continue;
            }
            String heading = line.replaceFirst("^#+ ", "").trim();
            String anchor = heading.toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            int times = seen.merge(anchor, 1, Integer::sum);
            if (times > 1 && line.startsWith("## ")) {
                problems.add(ROOT.relativize(page) + ": section \"" + heading + "\" appears " + times + " times");
            }
            anchors.add(times == 1 ? anchor : anchor + "-" + (times - 1));
        }
        return anchors;
    }

    /** The page without its fenced code blocks: a {@code #} comment in a shell sample is not a heading. */
    private static String withoutCode(String markdown) {
        return markdown.replaceAll("(?s)```.*?```", "");
    }
}
