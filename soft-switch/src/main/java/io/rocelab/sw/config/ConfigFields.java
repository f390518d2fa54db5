package io.rocelab.sw.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Reading one field of a config_db entry: config_db keeps every value as a string ({@code "vni": "10100"}),
 * so a number is parsed from the field's text, and a mistake is one line naming the entry and the field,
 * added to the problems of the whole file (every mistake at once), never thrown.
 */
final class ConfigFields {

    private ConfigFields() {
    }

    /**
     * @param problems where a mistake is told, as {@code WHERE: FIELD must be a number, not 'TEXT'} or
     *                 {@code WHERE: FIELD V is out of range MIN-MAX}
     * @param where    the entry, e.g. {@code VXLAN_TUNNEL|vtep}
     * @param entry    the entry's fields
     * @param field    the field's name
     * @param dflt     the value when the field is absent or wrong (a wrong one is a problem already told)
     * @param min      the least value allowed
     * @param max      the greatest value allowed
     * @return the field's value, or {@code dflt}
     */
    static long number(List<String> problems, String where, JsonNode entry, String field, long dflt, long min,
                       long max) {
        JsonNode node = entry.get(field);
        if (node == null) {
            return dflt;
        }
        String text = node.asText().trim();
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException x) {
            problems.add(where + ": " + field + " must be a number, not '" + text + "'");
            return dflt;
        }
        if (v < min || v > max) {
            problems.add(where + ": " + field + " " + v + " is out of range " + min + "-" + max);
            return dflt;
        }
        return v;
    }

    /** {@link #number(List, String, JsonNode, String, long, long, long)} with no range. */
    static long number(List<String> problems, String where, JsonNode entry, String field, long dflt) {
        return number(problems, where, entry, field, dflt, Long.MIN_VALUE, Long.MAX_VALUE);
    }
}
