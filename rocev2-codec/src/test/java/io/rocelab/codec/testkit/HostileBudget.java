package io.rocelab.codec.testkit;

import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * The size of the hostile-input properties (docs/hostile-input.md): how many tries each property
 * runs and how many hostile frames one try throws. The defaults are the ones a property names, sized
 * for every build; the system properties {@value #TRIES} and {@value #FRAMES} override them (the
 * {@code soak} profile sets both). Added to a property with {@code @AddLifecycleHook(HostileBudget.class)},
 * it also prints one line per property: tries, frames thrown and the time it took.
 */
public final class HostileBudget implements AroundPropertyHook {
    /** Tries per property; unset, the property's own {@code tries}. */
    public static final String TRIES = "rocelab.hostile.tries";
    /** Hostile frames per try; unset, the property's own default. */
    public static final String FRAMES = "rocelab.hostile.frames";

    private static final AtomicLong THROWN = new AtomicLong();

    /** Hostile frames per try: {@value #FRAMES} if set, else {@code byDefault}. */
    public static int frames(int byDefault) {
        return positive(FRAMES, byDefault);
    }

    /** Counts {@code n} frames thrown by the property running now, for its report line. */
    public static void thrown(long n) {
        THROWN.addAndGet(n);
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        if (System.getProperty(TRIES) != null) {
            context.attributes().setTries(positive(TRIES, 1));
        }
        THROWN.set(0);
        long start = System.nanoTime();
        PropertyExecutionResult result = property.execute();
        System.out.printf("hostile: %s: %d tries, %d frames, %.1f s%n", context.extendedLabel(),
                result.countTries(), THROWN.get(), (System.nanoTime() - start) / 1e9);
        return result;
    }

    private static int positive(String key, int byDefault) {
        String v = System.getProperty(key);
        if (v == null || v.isBlank()) {
            return byDefault;
        }
        int n = Integer.parseInt(v.trim());
        if (n < 1) {
            throw new IllegalArgumentException(key + " must be >= 1: " + v);
        }
        return n;
    }
}
