package io.rocelab.lab.labfile;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads YAML text into a {@link YNode} tree with every value's and key's line and column (Jackson's
 * YAML streaming parser). A duplicate key is a mistake, reported and the later value kept.
 */
public final class YamlSource {
    private static final YAMLFactory YAML = new YAMLFactory();
    private final String file;
    private final Problems problems;

    private YamlSource(String file, Problems problems) {
        this.file = file;
        this.problems = problems;
    }

    /**
     * @param file     the name mistakes are reported under
     * @param text     the YAML
     * @param problems collects mistakes (syntax errors: one, with its place)
     * @return the document, or null if the text is not YAML or is empty
     */
    public static YNode read(String file, String text, Problems problems) {
        YamlSource s = new YamlSource(file, problems);
        try (JsonParser p = YAML.createParser(text)) {
            if (p.nextToken() == null) {
                problems.add(Loc.of(file), "", "the file is empty");
                return null;
            }
            return s.node(p);
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            String msg = e.getOriginalMessage().lines().findFirst().orElse("not YAML").trim();
            problems.add(l == null ? Loc.of(file) : new Loc(file, l.getLineNr(), l.getColumnNr()), "",
                "not valid YAML: " + msg);
            return null;
        } catch (IOException e) {
            problems.add(Loc.of(file), "", "cannot read: " + e.getMessage());
            return null;
        }
    }

    private Loc here(JsonParser p) {
        JsonLocation l = p.currentTokenLocation();
        return new Loc(file, l.getLineNr(), l.getColumnNr());
    }

    private YNode node(JsonParser p) throws IOException {
        Loc loc = here(p);
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, YNode> entries = new LinkedHashMap<>();
                Map<String, Loc> keys = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    Loc keyLoc = here(p);
                    p.nextToken();
                    YNode value = node(p);
                    if (entries.containsKey(key)) {
                        problems.add(keyLoc, key, "duplicate key '" + key + "' (also at line " + keys.get(key).line()
                            + ")");
                    }
                    entries.put(key, value);
                    keys.putIfAbsent(key, keyLoc);
                }
                return new YNode.YMap(loc, entries, keys);
            }
            case START_ARRAY -> {
                List<YNode> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(node(p));
                }
                return new YNode.YList(loc, items);
            }
            case VALUE_STRING -> {
                return new YNode.YScalar(loc, p.getText());
            }
            case VALUE_NUMBER_INT -> {
                try {
                    return new YNode.YScalar(loc, p.getLongValue());
                } catch (IOException e) {
                    return new YNode.YScalar(loc, p.getText());
                }
            }
            case VALUE_NUMBER_FLOAT -> {
                return new YNode.YScalar(loc, p.getDoubleValue());
            }
            case VALUE_TRUE -> {
                return new YNode.YScalar(loc, Boolean.TRUE);
            }
            case VALUE_FALSE -> {
                return new YNode.YScalar(loc, Boolean.FALSE);
            }
            case VALUE_NULL -> {
                return new YNode.YScalar(loc, null);
            }
            default -> {
                return new YNode.YScalar(loc, p.getText());
            }
        }
    }
}
