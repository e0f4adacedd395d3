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
 * What a reader of the docs relies on beyond the samples ({@link DocsSamplesTest}): a measured figure has one
 * home, the evidence pages, so two pages cannot quote the same measurement two ways; and every link between
 * pages leads to a page and a heading that exist.
 */
class DocsFiguresAndLinksTest {

    /** Where measurements live: the guides quote them only beside a link to here. */
    private static final Set<String> EVIDENCE = Set.of("benchmarks.md", "chaos.md", "history.md");

    /** A measured figure: a rate, a ratio, resident memory, CPU in cores, or a "2 cores" machine. */
    private static final Pattern FIGURE =
            Pattern.compile("\\d[\\d,]*(\\.\\d+)?\\s?records/s|\\d(\\.\\d+)?×|\\bRSS\\b|\\d(\\.\\d+)? cores\\b");

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void aGuideQuotesAMeasurementOnlyBesideALinkToWhereItWasMeasured() throws IOException {
        List<String> unlinked = new ArrayList<>();
        for (Path page : pages()) {
            if (EVIDENCE.contains(page.getFileName().toString())) {
                continue;
            }
            for (Block block : blocks(Files.readAllLines(page))) {
                if (FIGURE.matcher(block.text()).find()
                        && !block.text().contains("benchmarks.md")
                        && !block.text().contains("chaos.md")) {
                    unlinked.add(ROOT.relativize(page) + ":" + block.line() + ": " + block.firstLine());
                }
            }
        }
        assertThat(unlinked)
                .as("paragraphs, tables or code blocks quoting a measurement with no link to benchmarks.md or"
                        + " chaos.md (move the figures there; quote them beside a link)")
                .isEmpty();
    }

    @Test
    void everyLinkBetweenPagesLeadsToAPageAndAHeadingThatExist() throws IOException {
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher link = LINK.matcher(lines.get(i));
                while (link.find()) {
                    String target = link.group(1);
                    if (target.contains("://") || target.startsWith("mailto:")) {
                        continue;
                    }
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    Path resolved = file.isEmpty()
                            ? page
                            : page.getParent().resolve(file).normalize();
                    String where = ROOT.relativize(page) + ":" + (i + 1) + ": " + target;
                    if (!Files.exists(resolved)) {
                        broken.add(where + " (no such file)");
                    } else if (hash >= 0 && resolved.toString().endsWith(".md")) {
                        Set<String> known = anchors.computeIfAbsent(resolved, DocsFiguresAndLinksTest::anchors);
                        if (!known.contains(target.substring(hash + 1))) {
                            broken.add(where + " (no such heading)");
                        }
                    }
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** GitHub's heading anchors: lower case, punctuation out, spaces to hyphens, repeats numbered. */
    private static Set<String> anchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inCode = false;
        try {
            for (String line : Files.readAllLines(page)) {
                if (line.startsWith("```")) {
                    inCode = !inCode;
                }
                if (inCode || !line.startsWith("#")) {
                    continue;
                }
                String slug = line.replaceFirst("^#+\\s*", "")
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "")
                        .replace(' ', '-');
                int repeat = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(repeat == 0 ? slug : slug + "-" + repeat);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return anchors;
    }

    /** Paragraphs, tables and list items between blank lines, and whole fenced code blocks. */
    private static List<Block> blocks(List<String> lines) {
        List<Block> blocks = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int start = 0;
        boolean inCode = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            boolean fence = line.startsWith("```");
            if (!inCode && (line.isBlank() || fence) && text.length() > 0) {
                blocks.add(new Block(start + 1, text.toString()));
                text.setLength(0);
            }
            if (!inCode && line.isBlank()) {
                continue;
            }
            if (text.length() == 0) {
                start = i;
            }
            text.append(line).append('\n');
            if (fence) {
                if (inCode) {
                    blocks.add(new Block(start + 1, text.toString()));
                    text.setLength(0);
                }
                inCode = !inCode;
            }
        }
        if (text.length() > 0) {
            blocks.add(new Block(start + 1, text.toString()));
        }
        return blocks;
    }

    private record Block(int line, String text) {
        String firstLine() {
            String first = text.lines().findFirst().orElse("");
            return first.length() > 100 ? first.substring(0, 100) + "…" : first;
        }
    }
}
