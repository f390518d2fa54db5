package io.rocelab.sw.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A switch configuration read from a {@code config_db.json}, with what the file carries that rocelab
 * does not act on: the tables it does not model ({@link SonicTables}) and fields whose SONiC meaning
 * it does not reproduce (a port that is {@code admin_status down}). Neither is a mistake; both are
 * for the user to see once.
 *
 * @param config        the configuration
 * @param ignoredTables the tables not modelled, sorted
 * @param notes         one line each: a field rocelab accepts but whose effect it does not model
 */
public record LoadedConfig(SwitchConfig config, List<String> ignoredTables, List<String> notes) {
    public LoadedConfig {
        ignoredTables = ignoredTables.stream().sorted().toList();
        notes = List.copyOf(notes);
    }

    /** @return the ignored tables as one line, and then each note: what a user should see, nothing if all is modelled */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        if (!ignoredTables.isEmpty()) {
            out.add(SonicTables.ignoredLine(ignoredTables));
        }
        out.addAll(notes);
        return out;
    }
}
