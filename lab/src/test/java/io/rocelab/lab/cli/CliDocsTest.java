package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Keeps the command-line reference true: every option a command's {@code --help} lists is in that
 * command's section of docs/cli.md, and the README stays a short page (no table cell over 150
 * characters) that still holds its two commands for a fresh machine.
 *
 * <p>picocli's model gives the options of the picocli commands. perftest's and rdma-core's tools
 * (and the demo) take their arguments unparsed ({@code @Unmatched}) and print their own help, so
 * for those the option lines of their help text, as {@code rocelab TOOL --help} prints it, are read.
 */
class CliDocsTest {
    static final Path ROOT = Path.of(System.getProperty("rocelab.root", ".."));
    static final int MAX_CELL = 150;

    /** An option line of a hand-written help text starts with its names, then the description. */
    private static final Pattern OPTION_LINE = Pattern.compile("^\\s+-");
    private static final Pattern OPTION_NAME = Pattern.compile("(?:^|[\\s,])(-{1,2}[A-Za-z][A-Za-z0-9_-]*)");

    @Test
    void everyFlagInHelpIsInItsSectionOfCliMd() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/cli.md"));
        Map<String, Set<String>> flags = flagsByCommand();
        assertTrue(flags.size() >= 20, "commands found: " + flags.keySet());
        assertTrue(flags.get("ib_write_bw").contains("--rate_limit"), "perftest's help read: " + flags.get("ib_write_bw"));
        assertTrue(flags.get("demo").contains("--no-warmup"), "demo's help read: " + flags.get("demo"));
        List<String> missing = new ArrayList<>();
        for (var e : flags.entrySet()) {
            String section = section(doc, e.getKey());
            if (section == null) {
                missing.add(e.getKey() + ": no section in docs/cli.md");
                continue;
            }
            for (String flag : e.getValue()) {
                String where = isStandardHelp(flag) ? doc : section;
                if (!Pattern.compile("(?<![\\w-])" + Pattern.quote(flag) + "(?![\\w-])").matcher(where).find()) {
                    missing.add("rocelab " + e.getKey() + " " + flag);
                }
            }
        }
        assertEquals(List.of(), missing, "flags in --help but not in docs/cli.md");
    }

    @Test
    void readmeIsShortAndKeepsItsTwoCommands() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("README.md"));
        List<String> longCells = new ArrayList<>();
        for (String line : lines) {
            if (!line.startsWith("|")) {
                continue;
            }
            for (String cell : line.split("(?<!\\\\)\\|")) {
                if (cell.strip().length() > MAX_CELL) {
                    longCells.add(cell.strip().length() + ": " + cell.strip().substring(0, 60) + "...");
                }
            }
        }
        assertEquals(List.of(), longCells, "README table cells over " + MAX_CELL + " characters");
        assertTrue(lines.contains("./rocelab demo"), "the README's demo command");
        assertTrue(lines.contains("mvn -B verify"), "the README's test command");
        assertTrue(lines.size() <= 130, "README lines: " + lines.size());
    }

    @Test
    void readmeLinksIntoCliMdLand() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String doc = Files.readString(ROOT.resolve("docs/cli.md"));
        Set<String> anchors = new LinkedHashSet<>();
        for (String line : doc.split("\n")) {
            if (line.startsWith("#")) {
                // GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens
                anchors.add(line.replaceFirst("^#+ ", "").toLowerCase().replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
            }
        }
        Matcher ids = Pattern.compile("<a id=\"([^\"]+)\">").matcher(doc);
        while (ids.find()) {
            anchors.add(ids.group(1));
        }
        Matcher links = Pattern.compile("docs/cli\\.md#([\\w-]+)").matcher(readme);
        List<String> broken = new ArrayList<>();
        int count = 0;
        while (links.find()) {
            count++;
            if (!anchors.contains(links.group(1))) {
                broken.add(links.group(1));
            }
        }
        assertTrue(count >= 8, "README links into docs/cli.md: " + count);
        assertEquals(List.of(), broken, "README links to missing docs/cli.md sections; there are " + anchors);
    }

    /** Every runnable command's qualified name (without "rocelab ") and the option names its help lists. */
    static Map<String, Set<String>> flagsByCommand() {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        collect(CommandLines.create(), out);
        return out;
    }

    private static void collect(CommandLine cl, Map<String, Set<String>> out) {
        CommandSpec spec = cl.getCommandSpec();
        String name = spec.qualifiedName(" ").replaceFirst("^rocelab ?", "");
        if (!name.isEmpty() && !name.equals("help")) {
            Set<String> names = new LinkedHashSet<>();
            for (OptionSpec o : spec.options()) {
                names.addAll(List.of(o.names()));
            }
            if (!spec.unmatchedArgsBindings().isEmpty()) {
                names.addAll(optionLines(ownHelp(cl, name)));
            }
            out.put(name, names);
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            collect(sub, out);
        }
    }

    /** The help a command prints itself (perftest's tools) or picocli's usage with its footer (the demo). */
    private static String ownHelp(CommandLine cl, String name) {
        String usage = cl.getUsageMessage();
        if (usage.contains("Options:")) {
            return usage;
        }
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            int code = CommandLines.create().execute((name + " --help").split(" "));
            assertEquals(0, code, name + " --help exit code");
        } finally {
            System.setOut(saved);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    /** The option names at the start of each option line, before the description. */
    static Set<String> optionLines(String help) {
        Set<String> names = new LinkedHashSet<>();
        for (String line : help.split("\n")) {
            if (!OPTION_LINE.matcher(line).find()) {
                continue;
            }
            String head = line.strip();
            int gap = head.indexOf("  ");
            head = gap < 0 ? head : head.substring(0, gap);
            Matcher m = OPTION_NAME.matcher(head);
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    private static boolean isStandardHelp(String flag) {
        return Set.of("-h", "--help", "-V", "--version").contains(flag);
    }

    /**
     * The section of docs/cli.md whose heading names the command (as a whole word), with its
     * subsections: up to the next heading of the same or a higher level.
     */
    static String section(String doc, String command) {
        String[] lines = doc.split("\n");
        boolean fence = false;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("```")) {
                fence = !fence;
            }
            if (fence && lines[i].startsWith("#")) {
                lines[i] = " " + lines[i];
            }
        }
        Pattern named = Pattern.compile("(?<![\\w-])" + Pattern.quote(command) + "(?![\\w-])");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("#") && named.matcher(lines[i]).find()) {
                int level = lines[i].indexOf(' ');
                StringBuilder sb = new StringBuilder();
                for (int j = i; j < lines.length; j++) {
                    if (j > i && lines[j].startsWith("#") && lines[j].indexOf(' ') <= level) {
                        break;
                    }
                    sb.append(lines[j]).append('\n');
                }
                return sb.toString();
            }
        }
        return null;
    }
}
