package io.rocelab.sw.config;

import java.util.List;
import java.util.Map;

/**
 * A switch's sFlow configuration, SONiC's three {@code config_db} tables as
 * {@code sonic-sflow.yang} (sonic-buildimage) defines them and {@code sflowmgrd} (sonic-swss
 * {@code cfgmgr/sflowmgr.cpp}) turns them into each port's sampling ({@link #session}).
 *
 * @param adminUp          {@code SFLOW|global admin_state}: up runs the agent (default down)
 * @param pollingInterval  {@code SFLOW|global polling_interval}: seconds between counter samples of a
 *                         port, 0 for none (default {@value #DEFAULT_POLLING_INTERVAL}, range 0 or 5-300)
 * @param pollingGiven     whether the file gives {@code polling_interval} ({@code show sflow} prints {@code default} if not)
 * @param agentId          {@code SFLOW|global agent_id}: the interface whose address is the agent's, or null
 * @param direction        {@code SFLOW|global sample_direction} (default rx)
 * @param dropMonitorLimit {@code SFLOW|global drop_monitor_limit}, as {@code show sflow} prints it (not modelled)
 * @param agentAddress     the agent address the datagrams carry: {@code agent_id}'s address, else
 *                         Loopback0's, else the management interface's, else the first routed port's,
 *                         else {@code 0.0.0.0}
 * @param collectors       {@code SFLOW_COLLECTOR}, at most two, by name
 * @param sessions         {@code SFLOW_SESSION|<port>}: each port's own settings, by port name
 * @param all              {@code SFLOW_SESSION|all}, or null
 */
public record SflowConfig(boolean adminUp, int pollingInterval, boolean pollingGiven, String agentId,
                          Direction direction, long dropMonitorLimit, String agentAddress,
                          List<Collector> collectors, Map<String, Session> sessions, Session all) {
    /** {@code polling_interval} by default (sonic-sflow.yang; hsflowd polls every 20 s). */
    public static final int DEFAULT_POLLING_INTERVAL = 20;
    /** The smallest {@code sample_rate} sonic-sflow.yang allows. */
    public static final int MIN_SAMPLE_RATE = 256;
    /** The largest {@code sample_rate} sonic-sflow.yang allows. */
    public static final int MAX_SAMPLE_RATE = 8_388_608;
    /** sFlow off, no table given: a switch without sFlow. */
    public static final SflowConfig NONE = new SflowConfig(false, DEFAULT_POLLING_INTERVAL, false, null, Direction.RX,
        0, "0.0.0.0", List.of(), Map.of(), null);

    public SflowConfig {
        collectors = List.copyOf(collectors);
        sessions = Map.copyOf(sessions);
    }

    /** {@code sample_direction}: rx samples what a port receives, tx what it sends, both both. */
    public enum Direction {
        RX, TX, BOTH;

        /** @return the direction SONiC spells {@code text}, or null */
        public static Direction parse(String text) {
            return switch (text) {
                case "rx" -> RX;
                case "tx" -> TX;
                case "both" -> BOTH;
                default -> null;
            };
        }

        /** @return whether packets a port receives are sampled */
        public boolean ingress() {
            return this != TX;
        }

        /** @return whether packets a port sends are sampled */
        public boolean egress() {
            return this != RX;
        }

        /** @return SONiC's spelling */
        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * {@code SFLOW_COLLECTOR|<name>}.
     *
     * @param name {@code <name>}
     * @param ip   {@code collector_ip}, IPv4 or IPv6
     * @param port {@code collector_port} (default 6343)
     * @param vrf  {@code collector_vrf}, default or mgmt; null when not given
     */
    public record Collector(String name, String ip, int port, String vrf) {
    }

    /**
     * {@code SFLOW_SESSION|<port>} or {@code |all}: what the entry gives, null for what it leaves out.
     *
     * @param adminUp    {@code admin_state} up (true) or down (false), or null
     * @param sampleRate {@code sample_rate}, or null
     * @param direction  {@code sample_direction}, or null
     */
    public record Session(Boolean adminUp, Integer sampleRate, Direction direction) {
    }

    /**
     * One port's sampling as sflowmgrd writes it to {@code APP_DB SFLOW_SESSION_TABLE} (what
     * {@code show sflow interface} prints).
     *
     * @param adminUp    the port is sampled
     * @param sampleRate one packet in this many
     * @param direction  which way
     */
    public record PortSampling(boolean adminUp, int sampleRate, Direction direction) {
    }

    /** @return whether the switch runs an sFlow agent: admin up and somewhere to send to */
    public boolean runs() {
        return adminUp && !collectors.isEmpty();
    }

    /**
     * A port's sampling as sflowmgrd works it out: nothing while sFlow is down; a port with its own
     * {@code SFLOW_SESSION} entry takes what it gives, {@code admin_state} up, the speed's rate and
     * rx for the rest (the HLD: "if sample-direction is not set at interface level, it will configure
     * direction rx irrespective of global configuration"); any other port is sampled up, at its
     * speed's rate, in {@code SFLOW_SESSION|all}'s direction or else {@code SFLOW|global}'s, unless
     * {@code SFLOW_SESSION|all} is {@code admin_state down}, which leaves it out.
     *
     * @param port      the port's name
     * @param speedBits its speed in bits per second
     * @return its sampling, or null when sflowmgrd writes none for it
     */
    public PortSampling session(String port, long speedBitsPerSecond) {
        if (!adminUp) {
            return null;
        }
        int rate = defaultRate(speedBitsPerSecond);
        Session own = sessions.get(port);
        if (own != null) {
            return new PortSampling(own.adminUp() == null || own.adminUp(),
                own.sampleRate() == null ? rate : own.sampleRate(),
                own.direction() == null ? Direction.RX : own.direction());
        }
        if (all != null && Boolean.FALSE.equals(all.adminUp())) {
            return null;
        }
        Direction d = all != null && all.direction() != null ? all.direction() : direction;
        return new PortSampling(true, rate, d);
    }

    /**
     * The sample rate of a port without one of its own: its speed in bits per second / 10^6
     * (SONiC sFlow HLD: 1-in-100,000 at 100G; sflowmgrd's {@code findSamplingRate}: the port's speed
     * in Mb/s), at least 1.
     */
    public static int defaultRate(long speedBitsPerSecond) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, speedBitsPerSecond / 1_000_000L));
    }
}
