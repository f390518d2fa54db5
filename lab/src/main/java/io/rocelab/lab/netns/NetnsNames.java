package io.rocelab.lab.netns;

/**
 * The names of what a netns run creates, so that leftovers are recognisable: every namespace is
 * {@value #PREFIX}, the run's id (its process id in base 36), then {@code -HOST} for a host's
 * namespace, nothing for the fabric's. Interfaces live only inside those namespaces.
 */
public final class NetnsNames {
    /** What every namespace of a netns run starts with. */
    public static final String PREFIX = "rl-";
    /** A host's interface, inside its namespace. */
    public static final String HOST_IFACE = "eth0";

    private final String id;

    private NetnsNames(String id) {
        this.id = id;
    }

    /** @return the names of this process's run */
    public static NetnsNames ofThisProcess() {
        return new NetnsNames(Long.toString(ProcessHandle.current().pid(), 36));
    }

    /** @return the run's id */
    public String id() {
        return id;
    }

    /** @return the namespace of the switches (the fabric's ends of the veth pairs) */
    public String fabric() {
        return PREFIX + id;
    }

    /** @return host {@code host}'s namespace */
    public String host(String host) {
        return PREFIX + id + "-" + host;
    }

    /** @return whether {@code namespace} is one a netns run makes */
    public static boolean ours(String namespace) {
        return namespace.startsWith(PREFIX) && namespace.length() > PREFIX.length();
    }

    /** @return whether {@code id} can be a run's id (a process id in base 36) */
    public static boolean isRunId(String id) {
        return id.matches("[0-9a-z]{1,13}");
    }

    /**
     * @return whether {@code name} (a namespace, or a VM's {@code ROCELAB_LAB_RUN}) is run {@code id}'s:
     *     {@code rl-ID} or {@code rl-ID-...}
     */
    public static boolean ofRun(String name, String id) {
        String fabric = PREFIX + id;
        return name.equals(fabric) || name.startsWith(fabric + "-");
    }

    /** @return the process id of the run that made {@code namespace}, or -1 if it names none */
    public static long ownerPid(String namespace) {
        if (!ours(namespace)) {
            return -1;
        }
        String rest = namespace.substring(PREFIX.length());
        int dash = rest.indexOf('-');
        try {
            return Long.parseLong(dash < 0 ? rest : rest.substring(0, dash), 36);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * A switch port's end of its veth pair in the fabric's namespace: {@code s<switch>-<port>}, e.g.
     * {@code s0-e8} for the first switch's Ethernet8 (Linux allows 15 characters).
     */
    static String switchIface(int switchIndex, String port) {
        String p = port.startsWith("Ethernet") ? "e" + port.substring("Ethernet".length()) : port;
        String name = "s" + switchIndex + "-" + p;
        return name.length() <= 15 ? name : name.substring(0, 15);
    }
}
