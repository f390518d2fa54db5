package io.rocelab.codec.testkit;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Makes Netty buffer leaks fail the tests instead of only being logged: installed when the test
 * launcher starts (before any buffer class is loaded), it gives every leak detector a listener
 * that records the leak; {@link LeakCheckExtension} fails the test class that leaked.
 */
public final class LeakRecorder implements LauncherSessionListener {
    private static final List<String> LEAKS = new ArrayList<>();
    private static volatile boolean installed;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        install();
    }

    static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            @SuppressWarnings("deprecation")
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                                                                      long maxActive) {
                ResourceLeakDetector<T> detector = new ResourceLeakDetector<>(resource, samplingInterval);
                detector.setLeakListener((type, records) -> record(type + " leaked:" + records));
                return detector;
            }
        });
    }

    static synchronized void record(String leak) {
        LEAKS.add(leak);
    }

    /** Leaks recorded since the last call. */
    static synchronized List<String> drain() {
        List<String> copy = new ArrayList<>(LEAKS);
        LEAKS.clear();
        return copy;
    }

    static boolean installed() {
        return installed;
    }
}
