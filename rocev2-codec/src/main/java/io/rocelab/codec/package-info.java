/**
 * RoCEv2 frames as a whole: {@link io.rocelab.codec.ParsedFrame} finds the headers of a received
 * frame without copying, {@link io.rocelab.codec.RoceFrame} builds one as values, with the ICRC
 * ({@link io.rocelab.codec.Icrc}) and the reasons a frame is dropped. The subpackages hold the
 * single headers and tables it is made of; nothing here has a thread or a clock.
 */
package io.rocelab.codec;
