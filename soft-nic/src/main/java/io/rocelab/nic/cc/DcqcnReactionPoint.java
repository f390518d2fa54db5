package io.rocelab.nic.cc;

import static io.rocelab.nic.cc.DcqcnParam.*;

/**
 * DCQCN's reaction point (the sender), as ConnectX NICs run it per QP, parameterised by mlx5's
 * {@code cc_params}. The rules of record (where the paper, the ns-3 models and firmware differ,
 * these decide; {@code docs/design.md} says where they come from):
 *
 * <ol>
 * <li>Rates Rc (current) and Rt (target) start at the line rate, alpha at
 *     {@code rp_initial_alpha_value}/1024, the increase stages T and B at 0. A CNP arriving with no
 *     timer running is the <em>first CNP</em>: Rc = {@code rp_rate_to_set_on_first_cnp} if that is
 *     not 0; alpha = initial; T = B = 0; the alpha timer ({@code rp_dce_tcp_rtt}) and the decrease
 *     check ({@code rp_rate_reduce_monitor_period}) start, anchored at this CNP. Every CNP sets the
 *     flags <em>cnp-for-alpha</em> and <em>cnp-for-decrease</em>.</li>
 * <li>Each alpha period: alpha = alpha*G + (1 - G) if cnp-for-alpha, else alpha*G (G =
 *     {@code rp_dce_tcp_g}/1024); the flag is cleared.</li>
 * <li>Each decrease check with cnp-for-decrease: if {@code rp_clamp_tgt_rate}, or
 *     {@code rp_clamp_tgt_rate_ati} and T &gt; 0, then Rt = Rc; then Rc = max({@code rp_min_rate},
 *     Rc - min(Rc*alpha*1024/2^{@code rp_gd}, Rc*(100 - {@code rp_min_dec_fac})/100)); T = B = 0; the
 *     byte counter and the increase timer ({@code rp_time_reset}) restart; the flag is cleared.</li>
 * <li>Increase events, from the first decrease on: the increase timer expiring (T += 1, it
 *     re-arms) and every {@code rp_byte_reset}*64 bytes sent since the last decrease or byte event
 *     (B += 1). Then: max(T, B) &lt;= F ({@code rp_threshold}): fast recovery; min(T, B) &gt; F:
 *     hyper increase, Rt += {@code rp_hai_rate}; else additive increase, Rt += {@code rp_ai_rate};
 *     Rt is capped at the line rate; Rc = (Rt + Rc)/2, and Rc = the line rate once Rt is there and
 *     Rc within {@code rp_ai_rate} of it.</li>
 * <li>Events at one instant apply in the order CNP, alpha update, decrease check, increase timer,
 *     byte counter. The first decrease check without a CNP once Rc and Rt are both at the line rate
 *     stops every timer, so the next CNP is a first CNP again.</li>
 * </ol>
 *
 * <p>Time is passed in (nanoseconds); the QP keeps one timer at {@link #nextTimerNanos()}.
 */
public final class DcqcnReactionPoint implements CongestionControl {
    private static final long NANOS_PER_MICRO = 1_000;
    private static final double BITS_PER_MEGABIT = 1e6;
    /** Byte counts are real numbers in the fluid replay: this much short of a threshold reaches it. */
    private static final double BYTE_EPSILON = 1e-6;

    private final double lineRate;
    private final double minRate;
    private final double aiRate;
    private final double haiRate;
    private final double firstCnpRate;
    private final long alphaPeriod;
    private final long decreasePeriod;
    private final long increasePeriod;
    private final double g;
    private final double cutScale;
    private final double maxCut;
    private final double byteThreshold;
    private final long stageThreshold;
    private final boolean clampTarget;
    private final boolean clampTargetAfterTimer;
    private final double initialAlpha;

    private double rc;
    private double rt;
    private double alpha;
    private int timerStage;
    private int byteStage;
    private boolean cnpForAlpha;
    private boolean cnpForDecrease;
    private long alphaAt = NEVER;
    private long decreaseAt = NEVER;
    private long increaseAt = NEVER;
    private boolean byteCounterOn;
    private double bytesSinceEvent;

    public DcqcnReactionPoint(DcqcnParams p, double lineRateBitsPerSecond) {
        if (!(lineRateBitsPerSecond > 0)) {
            throw new IllegalArgumentException("line rate must be > 0: " + lineRateBitsPerSecond);
        }
        this.lineRate = lineRateBitsPerSecond;
        this.minRate = Math.min(lineRate, p.get(RP_MIN_RATE) * BITS_PER_MEGABIT);
        this.aiRate = p.get(RP_AI_RATE) * BITS_PER_MEGABIT;
        this.haiRate = p.get(RP_HAI_RATE) * BITS_PER_MEGABIT;
        this.firstCnpRate = Math.min(lineRate, p.get(RP_RATE_TO_SET_ON_FIRST_CNP) * BITS_PER_MEGABIT);
        this.alphaPeriod = p.get(RP_DCE_TCP_RTT) * NANOS_PER_MICRO;
        this.decreasePeriod = p.get(RP_RATE_REDUCE_MONITOR_PERIOD) * NANOS_PER_MICRO;
        this.increasePeriod = p.get(RP_TIME_RESET) * NANOS_PER_MICRO;
        this.g = p.get(RP_DCE_TCP_G) / 1024.0;
        this.cutScale = 1024.0 / (1L << p.get(RP_GD));
        this.maxCut = (100 - p.get(RP_MIN_DEC_FAC)) / 100.0;
        this.byteThreshold = p.get(RP_BYTE_RESET) * 64.0;
        this.stageThreshold = p.get(RP_THRESHOLD);
        this.clampTarget = p.get(RP_CLAMP_TGT_RATE) == 1;
        this.clampTargetAfterTimer = p.get(RP_CLAMP_TGT_RATE_ATI) == 1;
        this.initialAlpha = p.get(RP_INITIAL_ALPHA_VALUE) / 1024.0;
        this.rc = lineRate;
        this.rt = lineRate;
        this.alpha = initialAlpha;
    }

    /** A factory for QPs: {@code dcqcn} with these parameters. */
    public static Factory factory(DcqcnParams p) {
        return lineRate -> new DcqcnReactionPoint(p, lineRate);
    }

    @Override
    public String name() {
        return "dcqcn";
    }

    /** Rc, the current rate in bit/s. */
    @Override
    public double rateBitsPerSecond() {
        return rc;
    }

    /** Rt, the target rate in bit/s. */
    public double targetRateBitsPerSecond() {
        return rt;
    }

    public double alpha() {
        return alpha;
    }

    /** T: increase-timer events since the last decrease. */
    public int timerStage() {
        return timerStage;
    }

    /** B: byte-counter events since the last decrease. */
    public int byteStage() {
        return byteStage;
    }

    /** Whether the timers run (a CNP came since the QP was last back at the line rate). */
    public boolean active() {
        return alphaAt != NEVER;
    }

    @Override
    public boolean onCnp(long nowNanos) {
        advance(nowNanos, false); // rule 5: a CNP comes before the timers due at its instant
        if (!active()) {
            if (firstCnpRate > 0) {
                rc = firstCnpRate;
            }
            alpha = initialAlpha;
            timerStage = 0;
            byteStage = 0;
            alphaAt = nowNanos + alphaPeriod;
            decreaseAt = nowNanos + decreasePeriod;
        }
        cnpForAlpha = true;
        cnpForDecrease = true;
        return true;
    }

    @Override
    public void onBytesSent(long nowNanos, int bytes) {
        advance(nowNanos, true);
        accumulate(bytes);
        fireByteEvents();
    }

    @Override
    public long nextTimerNanos() {
        return Math.min(alphaAt, Math.min(decreaseAt, increaseAt));
    }

    @Override
    public void onTimer(long nowNanos) {
        advance(nowNanos, true);
    }

    /**
     * Counts bytes sent towards the byte counter without applying its events (the fluid replay
     * credits a whole interval, then applies the events due at its end in rule 5's order).
     */
    void accumulate(double bytes) {
        if (byteCounterOn && byteThreshold > 0) {
            bytesSinceEvent += bytes;
        }
    }

    /** Bytes still to send before the next byte event, or infinity if the byte counter is off. */
    double bytesToNextByteEvent() {
        return byteCounterOn && byteThreshold > 0 ? Math.max(0, byteThreshold - bytesSinceEvent)
            : Double.POSITIVE_INFINITY;
    }

    /** Applies the byte events the counted bytes have reached. */
    void fireByteEvents() {
        while (byteCounterOn && byteThreshold > 0 && bytesSinceEvent >= byteThreshold - BYTE_EPSILON) {
            bytesSinceEvent = Math.max(0, bytesSinceEvent - byteThreshold);
            byteStage++;
            increase();
        }
    }

    /** Applies the timer events due before {@code now} (or at it, if {@code inclusive}) in time order. */
    private void advance(long now, boolean inclusive) {
        while (true) {
            long next = nextTimerNanos();
            if (next == NEVER || next > now || (!inclusive && next == now)) {
                return;
            }
            if (alphaAt == next) {
                updateAlpha(next);
            }
            if (decreaseAt == next) {
                checkDecrease(next);
            }
            if (increaseAt == next) {
                timerStage++;
                increaseAt = next + increasePeriod;
                increase();
            }
        }
    }

    /** Rule 2. */
    private void updateAlpha(long at) {
        alpha = cnpForAlpha ? alpha * g + (1 - g) : alpha * g;
        cnpForAlpha = false;
        alphaAt = at + alphaPeriod;
    }

    /** Rules 3 and 5. */
    private void checkDecrease(long at) {
        if (cnpForDecrease) {
            if (clampTarget || clampTargetAfterTimer && timerStage > 0) {
                rt = rc;
            }
            double cut = Math.min(rc * alpha * cutScale, rc * maxCut);
            rc = Math.max(minRate, rc - cut);
            timerStage = 0;
            byteStage = 0;
            bytesSinceEvent = 0;
            byteCounterOn = true;
            increaseAt = at + increasePeriod;
            cnpForDecrease = false;
            decreaseAt = at + decreasePeriod;
        } else if (rc >= lineRate && rt >= lineRate) {
            alphaAt = NEVER;
            decreaseAt = NEVER;
            increaseAt = NEVER;
            byteCounterOn = false;
            bytesSinceEvent = 0;
        } else {
            decreaseAt = at + decreasePeriod;
        }
    }

    /** Rule 4, after T or B went up. */
    private void increase() {
        if (Math.max(timerStage, byteStage) <= stageThreshold) {
            // fast recovery: the target stays
        } else if (Math.min(timerStage, byteStage) > stageThreshold) {
            rt += haiRate;
        } else {
            rt += aiRate;
        }
        rt = Math.min(rt, lineRate);
        rc = (rt + rc) / 2;
        if (rt >= lineRate && lineRate - rc <= aiRate) {
            rc = lineRate;
        }
    }

    @Override
    public String toString() {
        return String.format("dcqcn[Rc %.3f Gb/s, Rt %.3f Gb/s, alpha %.4f, T %d, B %d]", rc / 1e9, rt / 1e9, alpha,
            timerStage, byteStage);
    }
}
