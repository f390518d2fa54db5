package io.rocelab.sw.config;

import io.rocelab.fabric.pfc.PauseResponse;

/**
 * A lossless PG's headroom worked out from the port's physics, as SONiC's buffer manager does
 * ({@code sonic-swss cfgmgr/buffer_headroom_mellanox.lua}; the dynamic buffer HLD,
 * {@code SONiC doc/qos/dynamically-headroom-calculation.md}):
 *
 * <pre>
 *   bytes_on_cable = 2 * cable_m * speed_Mbps * 1e9 / 1.98e8 / (8 * 1024)   (as the script writes it)
 *   peer_response  = pause_quanta(speed) * 512 / 8                         (IEEE 802.3 31B.3.7;
 *                    394 at 100G, 118 at 40G, 80 at 25G, 905 at 400G; PauseResponse
 *                    keeps the table, a speed between two rows taking the lower's), else the ASIC's peer_response_time
 *   propagation    = port_mtu + bytes_on_cable + mac_phy_delay + peer_response
 *   cell_occupancy = (100 - small% + small% * worst_case_factor) / 100,
 *                    worst_case_factor = cell > 128 ? cell / 64 : 2 * cell / (1 + cell)
 *   xoff = ceil_1024(lossless_mtu + propagation * cell_occupancy)
 *   xon  = ceil_1024(pipeline_latency)
 *   size = ceil_1024(xon + xoff)                                            (no shared headroom pool)
 * </pre>
 *
 * Two parameter sets are known. {@link #SN2700_LOOKUP} reproduces the Mellanox SN2700's shipped
 * {@code pg_profile_lookup.ini} exactly (100G 5 m: size 50176, xon 19456, xoff 30720; 40 m: 58368,
 * 19456, 38912): cell 96, pipeline latency 19 KiB, MAC/PHY delay 0.8 KiB, peer response 3.8 KiB
 * (the ASIC table's {@code peer_response_time}), lossless MTU 1.5 KiB, port MTU 9100, all small
 * packets. {@link #SPECTRUM_DYNAMIC} is what today's script computes for a Spectrum-1 switch
 * ({@code headroom_type dynamic}): the same ASIC figures with the peer's response taken from the IEEE
 * pause quanta of the speed (25216 bytes at 100G: a NIC that takes as long to stop as 802.3 allows)
 * and the ASIC table's 18 KiB pipeline latency, so it is larger.
 *
 * @param cellSize            the ASIC's cell, bytes
 * @param pipelineLatency     bytes (the script's {@code pipeline_latency * 1024})
 * @param macPhyDelay         bytes ({@code mac_phy_delay * 1024})
 * @param peerResponse        bytes ({@code peer_response_time * 1024}), used when the quanta are not
 * @param ieeePauseQuanta     take the peer's response from the speed's IEEE pause quanta
 * @param losslessMtu         {@code LOSSLESS_TRAFFIC_PATTERN mtu}, bytes
 * @param smallPacketPercent  {@code LOSSLESS_TRAFFIC_PATTERN small_packet_percentage}
 * @param portMtu             the MTU the headroom is sized for, or 0 to take the port's
 */
public record HeadroomModel(int cellSize, double pipelineLatency, double macPhyDelay, double peerResponse,
                            boolean ieeePauseQuanta, double losslessMtu, int smallPacketPercent, int portMtu) {

    /** The parameters behind the SN2700's {@code pg_profile_lookup.ini}. */
    public static final HeadroomModel SN2700_LOOKUP = new HeadroomModel(96, 19 * 1024, 0.8 * 1024, 3.8 * 1024,
        false, 1.5 * 1024, 100, 9100);
    /** Spectrum-1 under today's {@code buffer_headroom_mellanox.lua} ({@code headroom_type dynamic}). */
    public static final HeadroomModel SPECTRUM_DYNAMIC = new HeadroomModel(96, 18 * 1024, 0.8 * 1024, 3.8 * 1024,
        true, 1.5 * 1024, 100, 0);

    /** A lossless PG's numbers, bytes. */
    public record Headroom(long size, long xon, long xoff) {
    }

    /**
     * @param speedBitsPerSecond port speed
     * @param cableMeters        cable length ({@code CABLE_LENGTH})
     * @param mtu                the port's MTU (used when the model has none of its own)
     * @return the PG's size, xon and xoff
     */
    public Headroom compute(long speedBitsPerSecond, int cableMeters, int mtu) {
        long speedMbps = speedBitsPerSecond / 1_000_000L;
        double worstCase = cellSize > 2 * 64 ? cellSize / 64.0 : 2.0 * cellSize / (1 + cellSize);
        double occupancy = (100 - smallPacketPercent + smallPacketPercent * worstCase) / 100.0;
        // the table of buffer_headroom_mellanox.lua, kept once for the NICs and the switches (PauseResponse)
        double response = ieeePauseQuanta ? PauseResponse.IEEE.bytesAt(speedBitsPerSecond) : peerResponse;
        double onCable = 2.0 * cableMeters * speedMbps * 1e9 / 198_000_000.0 / (8 * 1024);
        double propagation = (portMtu > 0 ? portMtu : mtu) + onCable + macPhyDelay + response;
        long xoff = ceilKib(losslessMtu + propagation * occupancy);
        long xon = ceilKib(pipelineLatency);
        return new Headroom(ceilKib(xon + xoff), xon, xoff);
    }

    /**
     * The headroom rocelab gives an SN2700 port by default: {@link #SPECTRUM_DYNAMIC}'s, which covers
     * a NIC that takes as long to stop as IEEE 802.3 allows, and never less than the static
     * {@link #SN2700_LOOKUP}'s (the validator's minimum), which is larger at low speeds and small MTUs,
     * where the pause quanta are few (2 at 1G) and the lookup assumes 3.8 KiB and a 9100-byte MTU.
     */
    public static Headroom sn2700(long speedBitsPerSecond, int cableMeters, int mtu) {
        Headroom dynamic = SPECTRUM_DYNAMIC.compute(speedBitsPerSecond, cableMeters, mtu);
        Headroom lookup = SN2700_LOOKUP.compute(speedBitsPerSecond, cableMeters, mtu);
        return dynamic.xoff() >= lookup.xoff() ? dynamic : lookup;
    }

    /** @return SONiC buffermgrd's name for the lossless profile of a speed and cable */
    public static String profileName(long speedBitsPerSecond, int cableMeters) {
        return "pg_lossless_" + speedBitsPerSecond / 1_000_000L + "_" + cableMeters + "m_profile";
    }

    private static long ceilKib(double bytes) {
        return (long) Math.ceil(bytes / 1024.0) * 1024;
    }
}
