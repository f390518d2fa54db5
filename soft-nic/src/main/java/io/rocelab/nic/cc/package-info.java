/**
 * Congestion control for RoCEv2 (DCQCN): the reaction point behind the pluggable
 * {@link io.rocelab.nic.cc.CongestionControl} interface ({@code dcqcn}, {@code none}), the
 * parameters under mlx5's {@code cc_params} names, the notification point's CNP pacing, and the
 * fluid replay behind {@code rocelab dcqcn replay}.
 */
package io.rocelab.nic.cc;
