package io.rocelab.lab.labfile;

/**
 * One event of the timeline.
 *
 * @param atNanos   when
 * @param kind      what
 * @param target    the link (its name), host, switch, port ({@code node:port}) or flow it acts on
 * @param priority  the PFC storm's priority (-1 otherwise)
 * @param loss      link faults: loss probability
 * @param corrupt   link faults: corruption probability
 * @param duplicate link faults: duplication probability
 */
public record EventSpec(long atNanos, Kind kind, String target, int priority, double loss, double corrupt,
                        double duplicate, Loc loc, String path) {
    /** The actions a timeline can take; the key that writes each in a file. */
    public enum Kind {
        LINK_DOWN("link-down"), LINK_UP("link-up"), LINK_FAULTS("link-faults"), PFC_STORM("pfc-storm"),
        PFC_STORM_STOP("pfc-storm-stop"), DRAIN_STOP("drain-stop"), DRAIN_START("drain-start"),
        FLOW_START("flow-start"), FLOW_STOP("flow-stop"), SWITCH_DOWN("switch-down"), SWITCH_UP("switch-up"),
        PORT_SILENT("port-silent"), PORT_SILENT_STOP("port-silent-stop"),
        /** Read only: a file's link-flap is its link-down and link-up events. */
        LINK_FLAP("link-flap");

        private final String key;

        Kind(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }
    }

    /** @return "t=500us link-down leaf0:Ethernet8" */
    public String describe() {
        return "t=" + Quantity.formatNanos(atNanos) + " " + kind.key() + " " + target
            + (kind == Kind.PFC_STORM || kind == Kind.PFC_STORM_STOP ? " priority " + priority : "")
            + (kind == Kind.LINK_FAULTS ? " loss " + loss + " corrupt " + corrupt + " duplicate " + duplicate : "");
    }
}
