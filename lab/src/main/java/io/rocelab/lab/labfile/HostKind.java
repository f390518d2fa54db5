package io.rocelab.lab.labfile;

import java.util.Locale;

/**
 * What a host of a lab is ({@code kind:} of a host). In virtual and live time every host is a soft
 * NIC; on the Linux network ({@code --mode netns}) a host may also be a plain network namespace or an
 * rdma_rxe VM.
 */
public enum HostKind {
    /** A rocelab soft NIC (in netns mode: owning the veth end in the host's namespace). */
    NIC,
    /** A network namespace whose kernel has the host's address: ordinary programs (iperf3, ping). */
    LINUX,
    /**
     * A qemu VM running Linux with rdma_rxe (netns mode), its eth0 a frame-over-UDP link to its
     * switch port; its flows are real perftest tools in the VM ({@code interop/boot-vm.sh}).
     */
    RXE_VM;

    /** @return {@code nic}, {@code linux} or {@code rxe-vm} */
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @return the kind called {@code key}, or null */
    public static HostKind of(String key) {
        for (HostKind k : values()) {
            if (k.key().equals(key)) {
                return k;
            }
        }
        return null;
    }
}
