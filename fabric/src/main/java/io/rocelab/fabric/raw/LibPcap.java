package io.rocelab.fabric.raw;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/** The one libpcap call pcap4j does not offer: the descriptor an event loop can wait on. */
final class LibPcap {
    static {
        Native.register(LibPcap.class, NativeLibrary.getInstance("pcap"));
    }

    private LibPcap() {
    }

    static native int pcap_get_selectable_fd(Pointer pcap);
}
