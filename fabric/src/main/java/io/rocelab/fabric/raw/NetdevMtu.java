package io.rocelab.fabric.raw;

import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.OptionalInt;

/**
 * The active MTU of a RoCE port on a Linux interface, as rdma_rxe derives it from its netdev
 * ({@code rxe_set_mtu} in drivers/infiniband/sw/rxe/rxe.c, {@code eth_mtu_int_to_enum} in
 * rxe_param.h): the interface's MTU less {@code RXE_MAX_HDR_LENGTH} (80 bytes of headers), rounded
 * down to an IB MTU (IBA 256, 512, 1024, 2048, 4096), at most 4096 and at least 256. A 1500-byte
 * veth gives 1024, a 9000-byte one 4096. A NIC port on a raw socket (the tools' {@code --raw}, a
 * netns lab's host on its veth) takes the smaller of this and the MTU asked for ({@code --active-mtu},
 * the host's {@code mtu}), as a real port cannot send a packet its link refuses; perftest's {@code -m}
 * is then capped by the active MTU as on any device ("Requested mtu is higher than active mtu").
 */
public final class NetdevMtu {
    /** rxe_param.h: the most header bytes a RoCEv2 packet carries besides its payload. */
    public static final int RXE_MAX_HDR_LENGTH = 80;

    private NetdevMtu() {
    }

    /** The IB MTU rxe gives a port whose netdev has MTU {@code netdevMtu}. */
    public static int ibMtuFor(int netdevMtu) {
        int room = netdevMtu - RXE_MAX_HDR_LENGTH;
        int mtu = 4096;
        while (mtu > 256 && mtu > room) {
            mtu /= 2;
        }
        return mtu;
    }

    /** The MTU of Linux interface {@code name} in this network namespace, or empty if there is none by that name. */
    public static OptionalInt of(String name) {
        try {
            NetworkInterface ni = NetworkInterface.getByName(name);
            return ni == null ? OptionalInt.empty() : OptionalInt.of(ni.getMTU());
        } catch (SocketException e) {
            return OptionalInt.empty();
        }
    }
}
