package io.rocelab.lab.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Turns LLDP off in a test's copy of a {@code config_db.json} ({@code FEATURE|lldp state disabled},
 * as on a SONiC switch), for the tests that count every frame a {@code rocelab switch} sends: the
 * switch otherwise sends its LLDPDUs on every port.
 */
final class LldpOff {
    private LldpOff() {
    }

    static void in(Path configDb) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(configDb.toFile());
        root.withObject("/FEATURE").withObject("/lldp").put("state", "disabled");
        json.writerWithDefaultPrettyPrinter().writeValue(configDb.toFile(), root);
    }
}
