package io.rocelab.lab.labfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** A lab-file subtree as JSON: how inline {@code config_db} tables reach the switch's own loader. */
final class JsonText {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JsonText() {
    }

    static String of(YNode node) {
        try {
            return JSON.writeValueAsString(tree(node));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode tree(YNode node) {
        if (node instanceof YNode.YMap m) {
            ObjectNode o = F.objectNode();
            for (Map.Entry<String, YNode> e : m.entries().entrySet()) {
                o.set(e.getKey(), tree(e.getValue()));
            }
            return o;
        }
        if (node instanceof YNode.YList l) {
            ArrayNode a = F.arrayNode();
            l.items().forEach(i -> a.add(tree(i)));
            return a;
        }
        Object v = ((YNode.YScalar) node).value();
        if (v == null) {
            return F.nullNode();
        }
        if (v instanceof Long n) {
            return F.numberNode(n);
        }
        if (v instanceof Double d) {
            return F.numberNode(d);
        }
        if (v instanceof Boolean b) {
            return F.booleanNode(b);
        }
        return F.textNode(v.toString());
    }
}
