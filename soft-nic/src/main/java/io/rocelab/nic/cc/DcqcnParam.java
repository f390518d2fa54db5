package io.rocelab.nic.cc;

import java.util.Locale;

/**
 * The DCQCN parameters, under the names of mlx5's {@code cc_params} (Linux
 * {@code drivers/infiniband/hw/mlx5/cong.c}, {@code /sys/kernel/debug/mlx5/<dev>/cc_params/}), with
 * the defaults and units NVIDIA documents for ConnectX firmware. The reaction point's parameters
 * start with {@code rp_}, the notification point's with {@code np_}.
 *
 * <p>Protocol as data: the name, default, range and unit of each parameter are here and nowhere
 * else; the command lines list and check them from this table.
 */
public enum DcqcnParam {
    RP_INITIAL_ALPHA_VALUE(1023, 0, 1023, "alpha x 1024", "alpha after the first CNP"),
    RP_DCE_TCP_G(1019, 0, 1023, "G x 1024", "weight kept by each alpha update: alpha = alpha*G + (1-G)*cnp"),
    RP_DCE_TCP_RTT(1, 1, 1_000_000, "us", "alpha update period"),
    RP_RATE_REDUCE_MONITOR_PERIOD(4, 1, 1_000_000, "us", "rate decrease check period"),
    RP_GD(11, 0, 15, "log2", "log2 of the decrease divisor: a cut is Rc*alpha*1024/2^gd"),
    RP_MIN_DEC_FAC(50, 0, 100, "%", "the most one decrease may cut is 100 minus this"),
    RP_MIN_RATE(1, 0, 10_000_000, "Mb/s", "lowest rate a decrease may reach"),
    RP_RATE_TO_SET_ON_FIRST_CNP(0, 0, 10_000_000, "Mb/s", "rate after the first CNP; 0 keeps the current rate"),
    RP_TIME_RESET(300, 1, 100_000_000, "us", "rate increase timer"),
    RP_BYTE_RESET(32767, 0, 1L << 32, "64 B", "rate increase byte counter; 0 disables it"),
    RP_THRESHOLD(1, 1, 31, "events", "increase events per stage (F): fast recovery up to it, hyper increase beyond"),
    RP_AI_RATE(5, 0, 10_000_000, "Mb/s", "additive increase step of the target rate"),
    RP_HAI_RATE(50, 0, 10_000_000, "Mb/s", "hyper increase step of the target rate"),
    RP_CLAMP_TGT_RATE(0, 0, 1, "0/1", "1: every decrease sets the target rate to the current rate first"),
    RP_CLAMP_TGT_RATE_ATI(1, 0, 1, "0/1", "1: a decrease after a timer increase sets the target rate first"),
    NP_MIN_TIME_BETWEEN_CNPS(4, 0, 1_000_000, "us", "at most one CNP per QP in this time"),
    NP_CNP_DSCP(48, 0, 63, "DSCP", "DSCP of the CNPs sent"),
    NP_CNP_PRIO(6, 0, 7, "priority", "802.1p priority (PCP) of the CNPs sent");

    private final long defaultValue;
    private final long min;
    private final long max;
    private final String unit;
    private final String description;
    private final String paramName;

    DcqcnParam(long defaultValue, long min, long max, String unit, String description) {
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.unit = unit;
        this.description = description;
        this.paramName = name().toLowerCase(Locale.ROOT);
    }

    /** The mlx5 name, e.g. {@code rp_ai_rate}. */
    public String paramName() {
        return paramName;
    }

    public long defaultValue() {
        return defaultValue;
    }

    public long min() {
        return min;
    }

    public long max() {
        return max;
    }

    public String unit() {
        return unit;
    }

    public String description() {
        return description;
    }

    /** The parameter named {@code name} (mlx5's spelling), or null. */
    public static DcqcnParam byName(String name) {
        for (DcqcnParam p : values()) {
            if (p.paramName.equals(name)) {
                return p;
            }
        }
        return null;
    }
}
