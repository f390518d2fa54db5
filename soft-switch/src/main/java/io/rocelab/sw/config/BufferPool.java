package io.rocelab.sw.config;

/**
 * One SONiC {@code BUFFER_POOL} entry, as bytes.
 *
 * <p>{@code size} is the pool's <em>shared</em> part: the bytes the priority groups drawing from it
 * share under their {@code dynamic_th}/{@code static_th}. A PG's reserved bytes ({@code size} of its
 * profile) and its headroom ({@code xoff}) are not carved out of it: on SONiC's Mellanox static
 * configurations ({@code buffers_defaults_t1.j2}) the pool sizes are what is left for sharing once
 * the reserved and headroom buffers of every port are set aside, and sonic-mgmt's QoS tests
 * ({@code tests/qos/files/mellanox/qos_param_generator.py}) count a PG's shared limit from the pool
 * size alone. {@code xoff} is the shared headroom pool ({@code SAI_BUFFER_POOL_ATTR_XOFF_SIZE}):
 * when it is set, a lossless PG's headroom bytes come from it (each PG still at most its own
 * {@code xoff}) instead of from a private headroom.
 *
 * @param name the pool's key
 * @param size shared bytes, or {@link SwitchConfigBuilder#UNSET} when not given (the validator reports it)
 * @param mode how its profiles' thresholds are read ({@code mode dynamic|static})
 * @param xoff the shared headroom pool in bytes, 0 for none
 */
public record BufferPool(String name, long size, Mode mode, long xoff) {
    /** {@code SAI_BUFFER_POOL_ATTR_THRESHOLD_MODE}: which threshold its profiles carry. */
    public enum Mode {
        /** {@code static_th}: a fixed number of shared bytes per PG. */
        STATIC,
        /** {@code dynamic_th}: 2^n times the pool's free shared bytes per PG. */
        DYNAMIC
    }

    /** @return a dynamic pool of {@code size} shared bytes without a shared headroom pool */
    public static BufferPool dynamic(String name, long size) {
        return new BufferPool(name, size, Mode.DYNAMIC, 0);
    }

    /** @return true if lossless PGs take their headroom from the pool's shared headroom pool */
    public boolean sharedHeadroom() {
        return xoff > 0;
    }
}
