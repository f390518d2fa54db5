package io.rocelab.sw.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Lays config_db tables over a switch's generated ones, entry by entry, as SONiC's
 * {@code config load} of a partial file (or a JSON merge patch, RFC 7396, per entry) does: a table
 * the base lacks is added; an entry the base lacks is added; an entry both have gets the overlay's
 * fields (a field whose value is null is removed; an entry whose value is null is removed). So a
 * lab can give one port of a generated switch its own {@code PORT_QOS_MAP} fields, or add
 * {@code ACL_TABLE}s, without spelling out the whole switch.
 *
 * <p>An entry the base binds to several ports at once ({@code PORT_QOS_MAP|Ethernet0,Ethernet4},
 * {@code BUFFER_PG|Ethernet0,Ethernet4|3}) is first split into one entry per port, the same
 * configuration in SONiC's other spelling, so that the overlay's entry for one port meets its own.
 */
public final class ConfigOverlay {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ConfigOverlay() {
    }

    /**
     * @param base    a whole config_db JSON
     * @param overlay tables to lay over it
     * @return the merged JSON
     * @throws ConfigException if either is not a JSON object of tables
     */
    public static String merge(String base, String overlay) {
        ObjectNode b = object(base, "the switch's configuration");
        ObjectNode o = object(overlay, "tables");
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> t = it.next();
            if (!t.getValue().isObject() || !b.path(t.getKey()).isObject()) {
                b.set(t.getKey(), t.getValue());
                continue;
            }
            ObjectNode table = split((ObjectNode) b.get(t.getKey()));
            b.set(t.getKey(), table);
            for (Iterator<Map.Entry<String, JsonNode>> e = t.getValue().fields(); e.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = e.next();
                JsonNode v = entry.getValue();
                if (v.isNull()) {
                    table.remove(entry.getKey());
                } else if (v.isObject() && table.path(entry.getKey()).isObject()) {
                    ObjectNode into = (ObjectNode) table.get(entry.getKey());
                    v.fields().forEachRemaining(f -> {
                        if (f.getValue().isNull()) {
                            into.remove(f.getKey());
                        } else {
                            into.set(f.getKey(), f.getValue());
                        }
                    });
                } else {
                    table.set(entry.getKey(), v);
                }
            }
        }
        return b.toPrettyString();
    }

    /** The table with every {@code A,B|rest} key split into {@code A|rest} and {@code B|rest}, in order. */
    private static ObjectNode split(ObjectNode table) {
        ObjectNode out = MAPPER.createObjectNode();
        List<String> keys = new ArrayList<>();
        table.fieldNames().forEachRemaining(keys::add);
        for (String key : keys) {
            int bar = key.indexOf('|');
            String head = bar < 0 ? key : key.substring(0, bar);
            String rest = bar < 0 ? "" : key.substring(bar);
            if (!head.contains(",")) {
                out.set(key, table.get(key));
                continue;
            }
            for (String part : head.split(",")) {
                out.set(part.trim() + rest, table.get(key).deepCopy());
            }
        }
        return out;
    }

    private static ObjectNode object(String json, String what) {
        try {
            JsonNode n = MAPPER.readTree(json);
            if (n instanceof ObjectNode o) {
                return o;
            }
        } catch (JsonProcessingException e) {
            // reported below
        }
        throw new ConfigException(List.of(what + " must be a JSON object of tables"));
    }
}
