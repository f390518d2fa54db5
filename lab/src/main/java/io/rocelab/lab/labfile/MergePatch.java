package io.rocelab.lab.labfile;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON Merge Patch (RFC 7386) over lab-file trees: a mapping in the patch merges into the target's
 * mapping key by key, a null removes the key, anything else (a scalar, a list) replaces what was
 * there. Locations travel with the values, so a mistake in a variant points into the variant.
 */
public final class MergePatch {
    private MergePatch() {
    }

    /** @return {@code target} with {@code patch} merged over it (neither is changed) */
    public static YNode apply(YNode target, YNode patch) {
        if (!(patch instanceof YNode.YMap p)) {
            return patch;
        }
        Map<String, YNode> entries = new LinkedHashMap<>();
        Map<String, Loc> keys = new LinkedHashMap<>();
        Loc loc = p.loc();
        if (target instanceof YNode.YMap t) {
            entries.putAll(t.entries());
            keys.putAll(t.keyLocs());
            loc = t.loc();
        }
        for (Map.Entry<String, YNode> e : p.entries().entrySet()) {
            String key = e.getKey();
            YNode value = e.getValue();
            if (value instanceof YNode.YScalar s && s.isNull()) {
                entries.remove(key);
                keys.remove(key);
            } else {
                entries.put(key, apply(entries.get(key), value));
                keys.put(key, p.keyLoc(key));
            }
        }
        return new YNode.YMap(loc, entries, keys);
    }
}
