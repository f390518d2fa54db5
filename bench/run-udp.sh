#!/usr/bin/env bash
# UDP endpoint mode benchmark (issue 5, DESIGN.md section 9). Needs root (ip netns), iproute2 and
# Linux with UDP GSO/GRO (4.18 / 5.0). Builds with reactor flags (no mvn install), then:
#
#  1. two namespaces rlu-ns1 (10.99.0.1) and rlu-ns2 (10.99.0.2) joined by a veth pair
#     rlu-v1/rlu-v2, MTU 9000 (a 4096-byte RoCE MTU packet is 4140 bytes of IP: it fits whole,
#     and GSO buffers of 64 KB are allowed on the path);
#  2. floor: a plain Netty epoll UDP blaster (GSO sender in ns1, GRO receiver in ns2) with
#     4112-byte datagrams, the size of rocelab's WRITE MIDDLE packets at MTU 4096 (BTH 12 +
#     payload 4096 + ICRC 4), for SECONDS; payload Gb/s at the receiver;
#  3. rocelab ib_write_bw --udp-endpoint: server in ns2, client in ns1, 64 KB messages, -D SECONDS;
#     then the same with -u 18 (a 1 s local ACK timeout instead of 67 ms);
#  4. in-process: rocelab ib_write_bw --in-process, 64 KB messages, -D SECONDS, beside the
#     copy+CRC floor (bench/nic WriteDataPathFloor) for SECONDS;
#
# and prints each result beside its floor with the ratio. Argument: seconds per run (default 10).
# The namespaces are removed on exit, also after a failure. Exit status 0 whatever the numbers
# are: a benchmark reports, it does not gate.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
secs="${1:-10}"
ns1=rlu-ns1 ns2=rlu-ns2 ip1=10.99.0.1 ip2=10.99.0.2
java_opts=(-Dio.netty.leakDetection.level=disabled)

if [[ $(id -u) -ne 0 ]]; then
    echo "run-udp.sh: needs root for ip netns (the in-process half can run alone: see docs/performance.md)" >&2
    exit 1
fi
for tool in ip java mvn; do
    command -v "$tool" >/dev/null || { echo "run-udp.sh: $tool not found" >&2; exit 1; }
done

cleanup() {
    ip netns del "$ns1" 2>/dev/null || true
    ip netns del "$ns2" 2>/dev/null || true
}
trap cleanup EXIT

mvn -B -q -o -pl lab,bench -am package -DskipTests
# counters (drops, retries, GSO sends) are printed to stderr at the end of each rocelab run
rocelab=(java "${java_opts[@]}" -Drocelab.counters=true -jar lab/target/rocelab.jar)
bench=(java "${java_opts[@]}" -cp bench/target/benchmarks.jar)

cleanup
ip netns add "$ns1"
ip netns add "$ns2"
ip link add rlu-v1 netns "$ns1" type veth peer name rlu-v2 netns "$ns2"
ip -n "$ns1" addr add "$ip1/24" dev rlu-v1
ip -n "$ns2" addr add "$ip2/24" dev rlu-v2
for n in "$ns1" "$ns2"; do
    ip -n "$n" link set lo up
done
ip -n "$ns1" link set rlu-v1 mtu 9000 up
ip -n "$ns2" link set rlu-v2 mtu 9000 up
# socket buffers as large as the ports ask for (4 MiB); the namespaces share the host's sysctl
echo "kernel $(uname -r), net.core.rmem_max $(cat /proc/sys/net/core/rmem_max), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== floor: Netty epoll UDP blaster, GSO + GRO, 4112-byte datagrams, ${secs} s, ns1 -> ns2"
ip netns exec "$ns2" "${bench[@]}" io.rocelab.bench.udp.UdpBlasterFloor receive "$ip2" 4791 $((secs + 30)) \
    > /tmp/rlu-floor-rx.txt &
rx=$!
sleep 2
ip netns exec "$ns1" "${bench[@]}" io.rocelab.bench.udp.UdpBlasterFloor send "$ip1" "$ip2" 4791 "$secs" 4112
wait "$rx"
floor_line=$(grep '^floor-rx:' /tmp/rlu-floor-rx.txt)
echo "$floor_line"
floor=$(awk '{print $2}' <<<"$floor_line")

rcvbuf_errors() { ip netns exec "$ns2" awk '/^Udp:/ {n++; if (n == 2) print $6}' /proc/net/snmp; }
# endpoint_bw EXTRA_FLAGS...: one server/client run; prints the table line and the counters, sets $bw
endpoint_bw() {
    echo "== rocelab ib_write_bw --udp-endpoint -s 65536 -D ${secs} $*, client ns1 -> server ns2"
    local drops_before
    drops_before=$(rcvbuf_errors)
    ip netns exec "$ns2" "${rocelab[@]}" ib_write_bw --udp-endpoint "$ip2" -s 65536 -D "$secs" --report_gbits "$@" \
        > /tmp/rlu-bw-server.txt 2>&1 &
    local srv=$!
    sleep 3
    ip netns exec "$ns1" "${rocelab[@]}" ib_write_bw --udp-endpoint "$ip1" -s 65536 -D "$secs" --report_gbits "$@" \
        "$ip2" > /tmp/rlu-bw-client.txt 2>&1 || true
    wait "$srv" || true
    sed -n '/#bytes/,+1p' /tmp/rlu-bw-client.txt
    sed -n 's/^ *\(.*counters:\)/ client \1/p' /tmp/rlu-bw-client.txt
    sed -n 's/^ *\(.*counters:\)/ server \1/p' /tmp/rlu-bw-server.txt
    echo " ns2 kernel UDP receive-buffer drops during the run: $(( $(rcvbuf_errors) - drops_before ))"
    bw=$(awk '/#bytes/{getline; print $4}' /tmp/rlu-bw-client.txt)
}
endpoint_bw
udp=$bw
# the same with a 1 s local ACK timeout (perftest's -u 18 instead of 14, 67 ms): shows what the
# spurious go-back-N resends (completer_retry_err with nothing lost) cost on a loaded machine
endpoint_bw -u 18
udp18=$bw

echo "== in-process: copy+CRC floor, 64 KB messages, MTU 4096, ${secs} s"
copy_line=$("${bench[@]}" io.rocelab.bench.nic.WriteFloorMain "$secs" 65536 4096)
echo "$copy_line"
copy=$(awk '{print $2}' <<<"$copy_line")
echo "== rocelab ib_write_bw --in-process, 64 KB messages, ${secs} s"
"${rocelab[@]}" ib_write_bw --in-process -s 65536 -D "$secs" --report_gbits | tee /tmp/rlu-bw-inproc.txt \
    | sed -n '/#bytes/,+1p'
inproc=$(awk '/#bytes/{getline; print $4}' /tmp/rlu-bw-inproc.txt)

echo
echo "== summary (payload Gb/s; ratio = rocelab / floor of the same run; goal >= 0.5)"
awk -v u="$udp" -v u18="$udp18" -v f="$floor" -v i="$inproc" -v c="$copy" 'BEGIN {
    printf "UDP endpoint  rocelab %6.2f   floor (epoll GSO/GRO blaster) %6.2f   ratio %.2f\n", u, f, (f > 0 ? u / f : 0)
    printf "  with -u 18  rocelab %6.2f                                         ratio %.2f\n", u18, (f > 0 ? u18 / f : 0)
    printf "in-process    rocelab %6.2f   floor (copy + CRC loop)       %6.2f   ratio %.2f\n", i, c, (c > 0 ? i / c : 0)
}'
