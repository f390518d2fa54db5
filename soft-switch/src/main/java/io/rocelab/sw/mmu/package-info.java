/**
 * The memory management unit in SAI's buffer model (docs/design.md §18): buffer admission and
 * accounting per ingress priority group ({@link io.rocelab.sw.mmu.Mmu}) and the PFC frames its XOFF
 * and XON decisions send ({@link io.rocelab.sw.mmu.PfcGenerator}).
 */
package io.rocelab.sw.mmu;
