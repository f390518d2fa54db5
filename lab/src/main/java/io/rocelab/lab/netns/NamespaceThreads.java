package io.rocelab.lab.netns;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Runs work inside a network namespace: on a thread of its own that has entered the namespace
 * ({@code setns(2)} with {@code CLONE_NEWNET}, which changes only the calling thread). A socket
 * opened there belongs to that namespace for its life, whichever thread uses it later: this is how
 * a soft NIC in this process owns the interface of a host's namespace, and the switches the ends of
 * the fabric's.
 */
final class NamespaceThreads {
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int CLONE_NEWNET = 0x40000000;

    /** The libc calls, bound directly. */
    private static final class Libc {
        static {
            Native.register(Libc.class, NativeLibrary.getInstance("c"));
        }

        static native int open(String path, int flags);

        static native int setns(int fd, int nstype);

        static native int close(int fd);

        static native String strerror(int errno);
    }

    private NamespaceThreads() {
    }

    /**
     * Runs {@code what} on a new thread inside the namespace {@code ns} (as {@code ip netns} names it)
     * and waits for it.
     *
     * @throws NetnsException if the namespace cannot be entered, or {@code what} fails (its message)
     */
    static <T> T call(String ns, Callable<T> what) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                enter(ns);
                result.complete(what.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "netns-" + ns);
        t.setDaemon(true);
        t.start();
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NetnsException("interrupted while opening a socket in " + ns, e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof NetnsException n) {
                throw n;
            }
            throw new NetnsException(ns + ": " + c.getMessage(), c);
        }
    }

    private static void enter(String ns) {
        String path = "/var/run/netns/" + ns;
        int fd = Libc.open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            throw new NetnsException("cannot open " + path + ": " + Libc.strerror(Native.getLastError()));
        }
        try {
            if (Libc.setns(fd, CLONE_NEWNET) != 0) {
                throw new NetnsException("cannot enter namespace " + ns + ": " + Libc.strerror(Native.getLastError()));
            }
        } finally {
            Libc.close(fd);
        }
    }
}
