package io.rocelab.lab.netns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether this process may make namespaces and veths: it must be root (effective user id 0). */
public final class Privileges {
    private Privileges() {
    }

    /** @return this process's effective user id, from /proc/self/status; -1 if unknown */
    public static int effectiveUid() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("Uid:")) {
                    return Integer.parseInt(l.substring(4).trim().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * @param euid the effective user id
     * @param what the command, for the message
     * @return null if {@code euid} may run {@code what}, else the one line saying why not
     */
    public static String refusal(int euid, String what) {
        if (euid == 0) {
            return null;
        }
        return what + " needs root: it makes network namespaces and veth pairs (run it with sudo; you are uid "
            + euid + ")";
    }
}
