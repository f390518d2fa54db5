package io.rocelab.perftest.run;

import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.Negotiated;
import java.util.Objects;

/**
 * Everything settled before the QPs are created: the options (adjusted for the agreed MTU), the
 * device, what the peers agreed on, and the values perftest derives from them. The data path
 * creates its resources from this.
 *
 * @param options    the run's settings
 * @param device     the opened device
 * @param negotiated the peer's version, the agreed page/cache-line sizes and MTU
 * @param outReads   outstanding reads/atomics to allow (1 for send and write)
 * @param gidIndex   the GID index in use
 */
public record RunContext(PerftestOptions options, DeviceInfo device, Negotiated negotiated, int outReads,
                         int gidIndex) {

    public RunContext {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(negotiated, "negotiated");
    }

    public Mtu mtu() {
        return negotiated.mtu();
    }
}
