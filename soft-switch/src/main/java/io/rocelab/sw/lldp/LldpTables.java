package io.rocelab.sw.lldp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads a {@code config_db.json}'s LLDP settings ({@link LldpSettings}): {@code FEATURE|lldp state},
 * {@code PORT|<name> alias} and {@code description}, {@code MGMT_INTERFACE|<if>|<ip/len>} (its first
 * IPv4 address, as lldpd.conf.j2 picks it) and {@code DEVICE_METADATA|localhost hwsku}. The file
 * has already been checked by the config loader; what is missing here is simply absent.
 */
public final class LldpTables {
    private LldpTables() {
    }

    /** @return the file's LLDP settings */
    public static LldpSettings read(Path configDb) throws IOException {
        return read(new ObjectMapper().readTree(configDb.toFile()));
    }

    /** @return the LLDP settings of a config_db's JSON tree */
    public static LldpSettings read(JsonNode root) {
        String state = root.path("FEATURE").path("lldp").path("state").asText("enabled");
        Map<String, String> aliases = new HashMap<>();
        Map<String, String> descriptions = new HashMap<>();
        Iterator<Map.Entry<String, JsonNode>> ports = root.path("PORT").fields();
        while (ports.hasNext()) {
            Map.Entry<String, JsonNode> e = ports.next();
            String alias = e.getValue().path("alias").asText("");
            if (!alias.isEmpty()) {
                aliases.put(e.getKey(), alias);
            }
            String description = e.getValue().path("description").asText("");
            if (!description.isEmpty()) {
                descriptions.put(e.getKey(), description);
            }
        }
        String mgmt = null;
        Iterator<String> keys = root.path("MGMT_INTERFACE").fieldNames();
        while (keys.hasNext() && mgmt == null) {
            String k = keys.next();
            int bar = k.indexOf('|');
            int slash = k.indexOf('/');
            if (bar > 0 && slash > bar && k.substring(bar + 1, slash).matches("\\d+\\.\\d+\\.\\d+\\.\\d+")) {
                mgmt = k.substring(bar + 1, slash);
            }
        }
        String hwsku = root.path("DEVICE_METADATA").path("localhost").path("hwsku").asText(null);
        return new LldpSettings(!"disabled".equals(state), aliases, descriptions, mgmt, hwsku);
    }
}
