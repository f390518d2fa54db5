package io.rocelab.lab.check;

import java.util.Objects;

/**
 * One thing the fabric check found, at a place a user can edit: a file (a config_db.json, or a lab
 * file and the switch or host in it) and a key of it in SONiC's {@code TABLE|key} form
 * ({@code PORT_QOS_MAP|Ethernet0}, {@code BUFFER_PG|Ethernet4|3}, {@code WRED_PROFILE|AZURE_LOSSLESS})
 * or a lab key ({@code hosts.h1.pcp}).
 *
 * <p>A key has up to three parts: its table, the port (or entry) it is about, and what follows the port
 * ({@code 3} of {@code BUFFER_PG|Ethernet4|3}). Findings that differ only in the port are printed as one
 * line whose key lists the ports as SONiC's tables do ({@code BUFFER_PG|Ethernet4,Ethernet8|3}).
 *
 * @param file    the file, as the user named it (with {@code : switch} or {@code : host} inside a lab)
 * @param table   the table, or empty for a lab key ({@code hosts.h1.pcp}, then the whole key is the entry)
 * @param entry   the port or entry name
 * @param suffix  what follows the entry, or empty
 * @param message what is wrong, and where the other end or the previous hop is
 */
public record Finding(String file, String table, String entry, String suffix, String message) {
    public Finding {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(entry, "entry");
        suffix = suffix == null ? "" : suffix;
        Objects.requireNonNull(message, "message");
    }

    /** @return the key, {@code TABLE|entry} or {@code TABLE|entry|suffix} */
    public String key() {
        return key(entry);
    }

    String key(String entries) {
        return table.isEmpty() ? entries : table + "|" + entries + (suffix.isEmpty() ? "" : "|" + suffix);
    }

    /** @return the line a user reads: {@code FILE: KEY: message} */
    public String line() {
        return file + ": " + key() + ": " + message;
    }
}
