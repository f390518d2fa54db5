/**
 * {@code rocelab switch}: the soft switch as a long-running process. {@link io.rocelab.lab.switchd.SwitchDaemon}
 * runs a {@link io.rocelab.sw.SoftSwitch} on one owner thread with its ports on frame-over-UDP links
 * or Linux interfaces ({@link io.rocelab.lab.switchd.PortSpec}), and answers SONiC's {@code show}
 * commands ({@link io.rocelab.lab.switchd.ShowCommands}) on a local control socket
 * ({@link io.rocelab.lab.switchd.ControlServer}, {@link io.rocelab.lab.switchd.ControlClient}).
 */
package io.rocelab.lab.switchd;
