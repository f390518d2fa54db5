/**
 * The switch as a whole: {@link io.rocelab.sw.SoftSwitch} runs the packages below on its owner
 * thread, and the text SONiC's and FRR's {@code show} commands print about it comes from here
 * ({@link io.rocelab.sw.SonicViews}, {@link io.rocelab.sw.RoutingViews}, over the live switch or a
 * {@link io.rocelab.sw.SwitchCounters} snapshot). No package below depends on this one.
 */
package io.rocelab.sw;
