/**
 * The switch's sFlow agent (sFlow version 5, as SONiC runs hsflowd): random 1-in-N packet sampling
 * per port ({@link io.rocelab.sw.sflow.PortSampler}), counter polling, datagrams to the collectors
 * ({@link io.rocelab.sw.sflow.SflowAgent}) through a {@link io.rocelab.sw.sflow.SflowSink}: UDP
 * to the collector in real time ({@link io.rocelab.sw.sflow.UdpSflowSink}), a pcap of the datagrams
 * the switch would send in virtual time ({@link io.rocelab.sw.sflow.PcapSflowSink}). The views
 * ({@link io.rocelab.sw.sflow.SflowViews}) are {@code show sflow} and {@code show sflow interface}
 * as sonic-utilities prints them, and rocelab's {@code show sflow counters}.
 */
package io.rocelab.sw.sflow;
