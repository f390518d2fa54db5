/**
 * The InfiniBand transport's vocabulary, as IBA 1.5 chapter 9 defines it: the 256 BTH opcodes and
 * which extension headers each carries ({@link io.rocelab.codec.ib.OpcodeTable}), transports, AETH
 * syndromes, NAK codes and 24-bit PSN arithmetic.
 */
package io.rocelab.codec.ib;
