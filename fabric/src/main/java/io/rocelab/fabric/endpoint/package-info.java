/**
 * UDP endpoint mode: the soft NIC as an L3 endpoint on the host's IP stack. Its RoCEv2 packets
 * travel as ordinary UDP datagrams to port 4791 (BTH, extension headers, payload, ICRC), the kernel
 * makes the Ethernet, IP and UDP headers, and two rocelab processes on different hosts or namespaces
 * talk over any IP network, as RoCEv2 NICs do. {@link io.rocelab.fabric.endpoint.UdpEndpointPort}
 * is the {@link io.rocelab.fabric.port.FramePort} that lets an unchanged soft NIC run on it.
 */
package io.rocelab.fabric.endpoint;
