package io.rocelab.fabric.time;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * Linux's timer slack of the calling thread ({@code prctl(PR_SET_TIMERSLACK)}): how late the kernel
 * may wake a thread that sleeps with a timeout, so that it can batch wake-ups; 50 us by default.
 *
 * <p>Why: Netty's epoll loop sleeps in {@code epoll_pwait2} with a nanosecond timeout (where the
 * kernel has it, 5.11 on) and that timeout is stretched by the slack: an idle loop woke 45 us
 * after its timers' deadlines on average, 50 us being the slack. A loop that serves real-time
 * timers sets its own to 1 ns. Where the call is not available (not Linux, no libc through JNA)
 * nothing changes and the timers are as late as the slack makes them.
 */
final class TimerSlack {
    private static final int PR_SET_TIMERSLACK = 29;
    private static final boolean AVAILABLE = bind();

    private TimerSlack() {
    }

    private static boolean bind() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return false;
        }
        try {
            Native.register(TimerSlack.class, NativeLibrary.getInstance("c"));
            return true;
        } catch (Throwable e) { // UnsatisfiedLinkError, a JNA without a native part for this platform
            return false;
        }
    }

    private static native int prctl(int option, long arg2, long arg3, long arg4, long arg5);

    /** @return whether the call is bound (Linux, libc through JNA) */
    static boolean available() {
        return AVAILABLE;
    }

    /**
     * Sets the calling thread's timer slack to 1 ns, the least there is (0 would restore the default).
     *
     * @return whether it was set
     */
    static boolean minimizeForThisThread() {
        return AVAILABLE && prctl(PR_SET_TIMERSLACK, 1L, 0L, 0L, 0L) == 0;
    }
}
