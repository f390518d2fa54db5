package io.rocelab.fabric.raw;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/** The few libc calls an AF_PACKET socket needs, bound directly (JNA direct mapping); Linux x86-64/aarch64. */
final class LibC {
    static final int AF_PACKET = 17;
    static final int SOCK_RAW = 3;
    /** htons(ETH_P_ALL) */
    static final int ETH_P_ALL_BE = 0x0300;
    static final int SOL_SOCKET = 1;
    static final int SO_RCVBUF = 8;
    static final int SO_RCVTIMEO = 20;
    static final int SO_RCVBUFFORCE = 33;
    static final int SOL_PACKET = 263;
    static final int PACKET_ADD_MEMBERSHIP = 1;
    static final int PACKET_MR_PROMISC = 1;
    static final int PACKET_STATISTICS = 6;
    static final int PACKET_AUXDATA = 8;
    static final int PACKET_RX_RING = 5;
    static final int PACKET_VERSION = 10;
    static final int PACKET_QDISC_BYPASS = 20;
    static final int PACKET_IGNORE_OUTGOING = 23;
    static final int TPACKET_V2 = 1;
    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int POLLIN = 1;
    static final int MSG_TRUNC = 0x20;
    static final int MSG_WAITFORONE = 0x10000;
    static final int EAGAIN = 11;
    static final int EINTR = 4;

    static {
        Native.register(LibC.class, NativeLibrary.getInstance("c"));
    }

    private LibC() {
    }

    static native int socket(int domain, int type, int protocol);

    static native int if_nametoindex(String name);

    static native int bind(int fd, Pointer addr, int len);

    static native int setsockopt(int fd, int level, int name, Pointer value, int len);

    static native int getsockopt(int fd, int level, int name, Pointer value, Pointer len);

    static native int recvmmsg(int fd, Pointer msgvec, int vlen, int flags, Pointer timeout);

    static native long send(int fd, Pointer buf, long len, int flags);

    static native int sendmmsg(int fd, Pointer msgvec, int vlen, int flags);

    static native int poll(Pointer fds, long nfds, int timeoutMillis);

    static native Pointer mmap(Pointer addr, long length, int prot, int flags, int fd, long offset);

    static native int munmap(Pointer addr, long length);

    static native int close(int fd);

    static native String strerror(int errno);

    /** @return {@code what}: libc's reason for the last failure */
    static String lastError(String what) {
        int errno = Native.getLastError();
        return what + ": " + strerror(errno) + " (errno " + errno + ")";
    }
}
