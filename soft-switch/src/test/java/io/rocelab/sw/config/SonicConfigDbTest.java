package io.rocelab.sw.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shipped real-shaped config_db files as SONiC's templates write them. */
class SonicConfigDbTest {
    static final Path SONIC = Path.of(System.getProperty("rocelab.root", "..")).resolve("labs/sonic");

    @Test
    void probe() throws IOException {
        for (String f : List.of("mellanox-sn2700-t1.json", "arista-7060cx-32s-t1.json")) {
            try {
                LoadedConfig c = ConfigLoader.read(SONIC.resolve(f));
                System.out.println(f + ": " + c.lines());
            } catch (ConfigException e) {
                System.out.println(f + ": " + String.join("\n  ", e.problems()));
            }
        }
    }
}
