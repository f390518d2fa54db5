#!/usr/bin/env bash
# A soak of the switch process on veth: MINUTES of iperf3 TCP and RoCE RC writes through
# `rocelab switch` at once, sampling the switch's resident memory, open file descriptors and threads.
# Needs root (ip netns), iproute2, ethtool and iperf3. Builds with reactor flags (no mvn install), then:
#
#  1. three namespaces: rls-s (the switch) and rls-a / rls-b (the hosts), veth pairs rls-sa-rls-ha and
#     rls-sb-rls-hb, MTU 9000, every end's offloads off (a user-space switch forwards frames as the
#     kernel hands them over), 10.99.57.1/24 and .2 for the kernels, .11 and .12 for the soft NICs;
#  2. `rocelab switch` on the demo leaf's config_db (DSCP 26 lossless on priority 3, PFC, WRED/ECN)
#     with Ethernet0 on rls-sa (AF_PACKET) and Ethernet4 on rls-sb;
#  3. for MINUTES, in the same direction (a to b, so both classes share Ethernet4's egress):
#     `ib_write_bw --raw -R -T 106` (rdma_cm to the NIC's own address, DSCP 26: the lossless class), 64 KiB writes, and
#     `iperf3 -c` TCP (DSCP 0: lossy);
#  4. every SAMPLE seconds a row: the switch JVM's VmRSS, open fds, threads, and its port counters;
#  5. at the end: the memory and fd verdicts (flat: the last third's mean within 10 % of the second
#     third's, the first third being JIT and heap warm-up), the lossless class's drops on the switch
#     (`show priority-group drop counters`, `show queue counters` UC3), and the switch's frame counts
#     beside the hosts' own (`ip -s link`): what rls-ha sent against what Ethernet0 received (the
#     difference is what the switch's socket dropped, RX_DROPPED_SOCKET) and Ethernet4's sent against
#     what rls-hb received.
# Usage: bench/run-soak.sh [MINUTES (default 30)] [SAMPLE seconds (default 30)]
# Environment: SKIP_BUILD=1 uses the jars as they are. Exit status 0 whatever the numbers are: a
# benchmark reports, it does not gate. The namespaces are removed on exit, also after a failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
minutes="${1:-30}"
sample="${2:-30}"
secs=$((minutes * 60))
s=rls-s a=rls-a b=rls-b
out=$(mktemp -d /tmp/rls-soak.XXXXXX)

if [[ $(id -u) -ne 0 ]]; then
    echo "run-soak.sh: needs root for ip netns" >&2
    exit 1
fi
for tool in ip ethtool iperf3 java mvn; do
    command -v "$tool" >/dev/null || { echo "run-soak.sh: $tool not found" >&2; exit 1; }
done

cleanup() {
    for n in "$s" "$a" "$b"; do ip netns pids "$n" 2>/dev/null | xargs -r kill -9 2>/dev/null || true; done
    for n in "$s" "$a" "$b"; do ip netns del "$n" 2>/dev/null || true; done
}
trap cleanup EXIT
cleanup

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    mvn -B -q -o -pl lab -am package -DskipTests
fi
jar="$root/lab/target/rocelab.jar"
rocelab=(java -Dio.netty.leakDetection.level=disabled -jar "$jar")
off=(tx off tso off gso off gro off)

for n in "$s" "$a" "$b"; do ip netns add "$n"; done
ip link add rls-sa type veth peer name rls-ha
ip link add rls-sb type veth peer name rls-hb
for v in rls-sa rls-sb; do
    ip link set "$v" netns "$s"
    ip -n "$s" link set "$v" mtu 9000 up
    ip netns exec "$s" ethtool -K "$v" "${off[@]}" >/dev/null
done
i=1
for h in a b; do
    n=rls-$h v=rls-h$h
    ip link set "$v" netns "$n"
    ip -n "$n" addr add 10.99.57.$i/24 dev "$v"
    ip -n "$n" link set "$v" mtu 9000 up
    ip -n "$n" link set lo up
    ip netns exec "$n" ethtool -K "$v" "${off[@]}" >/dev/null
    i=$((i + 1))
done

cp lab/src/main/resources/demo/leaf.json "$out/config_db.json"
sock="$out/sw.sock"
ip netns exec "$s" "${rocelab[@]}" switch --config "$out/config_db.json" --port Ethernet0=veth:rls-sa \
    --port Ethernet4=veth:rls-sb --socket "$sock" >"$out/switch.log" 2>&1 &
for _ in $(seq 120); do grep -q ready "$out/switch.log" && break; sleep 0.5; done
grep -q ready "$out/switch.log" || { echo "run-soak.sh: the switch did not start:"; cat "$out/switch.log"; exit 1; }
swpid=$(ip netns pids "$s" | head -1)

ip netns exec "$b" "${rocelab[@]}" ib_write_bw --raw rls-hb --ip 10.99.57.12 --mac 52:54:00:57:00:12 \
    -D "$secs" -s 65536 -R -T 106 -p 18580 >"$out/server.log" 2>&1 &
for _ in $(seq 120); do grep -q "Waiting for client" "$out/server.log" && break; sleep 0.5; done
ip netns exec "$b" iperf3 -s -1 -p 5299 >"$out/iperf3-server.log" 2>&1 &
sleep 1
ip netns exec "$a" "${rocelab[@]}" ib_write_bw --raw rls-ha --ip 10.99.57.11 --mac 52:54:00:57:00:11 \
    -D "$secs" -s 65536 -R -T 106 -p 18580 10.99.57.12 >"$out/client.log" 2>&1 &
client=$!
ip netns exec "$a" iperf3 -c 10.99.57.2 -p 5299 -t "$secs" -i 60 >"$out/iperf3.log" 2>&1 &
tcp=$!

show() { "${rocelab[@]}" switch show "$@" --socket "$sock" 2>&1; }
printf '%8s %10s %5s %8s %14s %14s\n' elapsed_s rss_kib fds threads eth0_rx_ok eth4_tx_ok | tee "$out/samples.txt"
start=$(date +%s)
while kill -0 "$client" 2>/dev/null || kill -0 "$tcp" 2>/dev/null; do
    now=$(( $(date +%s) - start ))
    rss=$(awk '/VmRSS/ {print $2}' /proc/"$swpid"/status)
    fds=$(ls /proc/"$swpid"/fd | wc -l)
    thr=$(awk '/Threads/ {print $2}' /proc/"$swpid"/status)
    counters=$(show interfaces counters)
    rx=$(awk '$1 == "Ethernet0" {print $3}' <<<"$counters")
    tx=$(awk '$1 == "Ethernet4" {print $9}' <<<"$counters")
    printf '%8d %10d %5d %8d %14s %14s\n' "$now" "$rss" "$fds" "$thr" "$rx" "$tx" | tee -a "$out/samples.txt"
    sleep "$sample"
done
wait "$client" || echo "run-soak.sh: ib_write_bw client exited with $?"
wait "$tcp" || echo "run-soak.sh: iperf3 exited with $?"

echo
echo "== RoCE (ib_write_bw, DSCP 26, lossless)"
grep -A1 "#bytes" "$out/client.log" || tail -5 "$out/client.log"
echo "== TCP (iperf3, DSCP 0, lossy)"
grep -E "sender|receiver" "$out/iperf3.log" | tail -2
echo "== the switch"
show interfaces counters
show queue counters | awk 'NR <= 2 || /UC3|UC0/'
show priority-group drop counters
show ports
echo "== the hosts' own counters (ip -s link)"
ip -n "$a" -s link show rls-ha | sed -n '3,6p'
ip -n "$b" -s link show rls-hb | sed -n '3,6p'
echo "== verdicts (samples after the first third)"
awk 'NR > 1 { r[NR] = $2; f[NR] = $3; n = NR }
     END { third = int((n - 1) / 3); if (third < 1) { print "too few samples"; exit }
           for (i = 2 + third; i < 2 + 2 * third; i++) { r2 += r[i]; f2 += f[i] } r2 /= third; f2 /= third
           for (i = 2 + 2 * third; i <= n; i++) { r3 += r[i]; f3 += f[i]; m++ } r3 /= m; f3 /= m
           printf "rss: %.0f KiB then %.0f KiB (%+.1f %%): %s\n", r2, r3, 100 * (r3 - r2) / r2, (r3 <= 1.1 * r2 ? "flat" : "GROWING")
           printf "fds: %.1f then %.1f: %s\n", f2, f3, (f3 <= 1.1 * f2 ? "flat" : "GROWING") }' "$out/samples.txt"
echo "run-soak.sh: logs in $out"
