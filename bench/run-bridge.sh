#!/usr/bin/env bash
# The switch process on veth beside the Linux bridge (issue 17's benchmark). Needs root (ip netns),
# iproute2, ethtool and iperf3. Builds with reactor flags (no mvn install), then:
#
#  1. three namespaces: rlb-s (the forwarder) and rlb-a / rlb-b (the hosts), veth pairs
#     rlb-sa0-rlb-ha0 and rlb-sb0-rlb-hb0, MTU 9000, every end's offloads off (tx checksum, TSO,
#     GSO, GRO: a user-space switch forwards frames as they are, so the kernel must not hand it
#     64 KB super-frames or frames with checksums left to a NIC), 10.99.56.1/24 and .2 on the hosts;
#  2. RUNS times, for each forwarder in turn: `rocelab switch` with its two ports on the AF_PACKET
#     backend (af_packet:), the same on libpcap (pcap:), then a Linux bridge enslaving the same two
#     veths in the same namespace:
#     a. frames: bench/raw VethFrameBlast sends 4 KB RoCE WRITE MIDDLE frames (4,154 bytes, DSCP 26)
#        from rlb-a for SECONDS as fast as one AF_PACKET socket takes them; rlb-hb0's rx_packets
#        counter says how many arrived: frames per second over the sender's time;
#     b. tcp: iperf3 -c from rlb-a to an iperf3 server in rlb-b for SECONDS, Gb/s received;
#  3. the median of each column and the ratios switch / bridge.
# For the switch it also prints, per frames run, its threads' CPU (% of a core) and its raw ports' own
# counters over the run (`rocelab switch show ports`): frames sent, and frames lost at its sockets
# (RX_DROPPED_SOCKET: the kernel's ring was full) or between its threads (RX_DROPPED_BACKLOG).
#
# Generator and sink are the same programs for all three forwarders, so what differs is the
# forwarder's cost; on a machine with few cores the generator, the switch and the sink share them,
# and the ratio says how much of the cores forwarding in user space takes.
# Usage: bench/run-bridge.sh [SECONDS (default 5)] [RUNS (default 3)]
# Environment: SKIP_BUILD=1 uses the jars as they are; SWITCH_JAVA_OPTS are given to the switch's JVM
# (e.g. -XX:StartFlightRecording=filename=/tmp/switch.jfr to see where its time goes); FORWARDERS
# picks some of "af_packet pcap bridge"; WARMUP seconds of frames before each forwarder's measurement
# (default 2: the switch's JIT compiles its forwarding path, as it has in a switch that runs for long). Exit status 0 whatever the numbers are: a
# benchmark reports, it does not gate. The namespaces are removed on exit, also after a failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
secs="${1:-5}"
runs="${2:-3}"
warmup="${WARMUP:-2}"
s=rlb-s a=rlb-a b=rlb-b
ipa=10.99.56.1 ipb=10.99.56.2 ipsink=10.99.56.99 maca=52:54:00:56:00:01 macb=52:54:00:56:00:02
out=$(mktemp -d /tmp/rlb-bench.XXXXXX)

if [[ $(id -u) -ne 0 ]]; then
    echo "run-bridge.sh: needs root for ip netns" >&2
    exit 1
fi
for tool in ip ethtool iperf3 java mvn; do
    command -v "$tool" >/dev/null || { echo "run-bridge.sh: $tool not found" >&2; exit 1; }
done

switch_pid=""
cleanup() {
    [[ -n "$switch_pid" ]] && kill "$switch_pid" 2>/dev/null || true
    for n in "$s" "$a" "$b"; do ip netns pids "$n" 2>/dev/null | xargs -r kill -9 2>/dev/null || true; done
    for n in "$s" "$a" "$b"; do ip netns del "$n" 2>/dev/null || true; done
}
trap cleanup EXIT

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    mvn -B -q -o -pl lab,bench -am package -DskipTests
fi
java_opts=(-Dio.netty.leakDetection.level=disabled)
blast=(java "${java_opts[@]}" -cp "$root/bench/target/benchmarks.jar" io.rocelab.bench.raw.VethFrameBlast)

cleanup
for n in "$s" "$a" "$b"; do ip netns add "$n"; ip -n "$n" link set lo up; done
ip link add rlb-sa0 netns "$s" type veth peer name rlb-ha0 netns "$a"
ip link add rlb-sb0 netns "$s" type veth peer name rlb-hb0 netns "$b"
ip -n "$a" link set rlb-ha0 address "$maca"
ip -n "$b" link set rlb-hb0 address "$macb"
for end in "$s rlb-sa0" "$s rlb-sb0" "$a rlb-ha0" "$b rlb-hb0"; do
    set -- $end
    ip -n "$1" link set "$2" mtu 9000 up
    ip netns exec "$1" ethtool -K "$2" tx off tso off gso off gro off >/dev/null 2>&1 || true
done
ip -n "$a" addr add "$ipa/24" dev rlb-ha0
ip -n "$b" addr add "$ipb/24" dev rlb-hb0
# the hosts know each other's MAC: no ARP in the measurement
ip -n "$a" neigh replace "$ipb" lladdr "$macb" dev rlb-ha0 nud permanent
ip -n "$b" neigh replace "$ipa" lladdr "$maca" dev rlb-hb0 nud permanent
ip netns exec "$b" iperf3 -s -D -1 >/dev/null 2>&1 || true
echo "kernel $(uname -r), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), ${runs} runs of ${secs} s"

start_forwarder() {
    case "$1" in
        bridge)
            ip -n "$s" link add rlb-br0 type bridge
            ip -n "$s" link set rlb-sa0 master rlb-br0
            ip -n "$s" link set rlb-sb0 master rlb-br0
            ip -n "$s" link set rlb-br0 up ;;
        *)
            ip netns exec "$s" java "${java_opts[@]}" ${SWITCH_JAVA_OPTS:-} -jar "$root/lab/target/rocelab.jar" switch --config lab/src/main/resources/demo/leaf.json \
                --port "Ethernet0=$1:rlb-sa0" --port "Ethernet4=$1:rlb-sb0" --name rlb-bench > "$out/switch.log" 2>&1 &
            switch_pid=$!
            local waited=0
            until grep -q '^ready' "$out/switch.log" 2>/dev/null || ((waited >= 60)); do
                sleep 0.5; waited=$((waited + 1))
            done
            sleep 1 ;;
    esac
    # both hosts speak once so a learning forwarder knows where each MAC is
    ip netns exec "$a" ping -c 1 -W 2 "$ipb" >/dev/null 2>&1 || true
    # a long-running forwarder is measured warm: WARMUP seconds of the same frames first, not counted
    if [[ "$warmup" != 0 ]]; then
        ip netns exec "$a" "${blast[@]}" send rlb-ha0 "$warmup" "$maca" "$macb" "$ipa" "$ipsink" >/dev/null 2>&1 || true
        sleep 0.5
    fi
}

# switch_counts: the switch's raw ports' own counters (`show ports`), summed over its ports, "NAME value"
switch_counts() {
    ip netns exec "$s" java -jar "$root/lab/target/rocelab.jar" switch show ports --name rlb-bench 2>/dev/null \
        | grep -o '[A-Z_]*=[0-9]*' | awk -F= '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' || true
}

stop_forwarder() {
    case "$1" in
        bridge)
            ip -n "$s" link del rlb-br0 ;;
        *)
            kill "$switch_pid" 2>/dev/null || true
            wait "$switch_pid" 2>/dev/null || true
            switch_pid="" ;;
    esac
}

# thread_ticks PID: "ticks name" per thread of a process (utime + stime)
thread_ticks() {
    local t stat
    for t in /proc/"$1"/task/*; do
        read -r stat 2>/dev/null < "$t/stat" || continue
        local name=${stat#*(}; name=${name%%)*}
        local -a f; read -r -a f <<< "${stat##*) }"
        echo "$(( f[11] + f[12] )) ${name// /_}"
    done
}

# frames_run: prints the frames per second (thousands) that reached rlb-hb0 (its kernel counter: the
# frames the forwarder delivered, whoever reads them) while the generator sent. They are addressed to
# rlb-hb0's MAC and to an IP no host has, so rlb-b's kernel (not a router) drops them silently.
frames_run() {
    local before after
    before=$(ip netns exec "$b" cat /sys/class/net/rlb-hb0/statistics/rx_packets)
    if [[ -n "$switch_pid" ]]; then
        switch_counts > "$out/counts.before"
        thread_ticks "$switch_pid" > "$out/ticks.before"
    fi
    ip netns exec "$a" "${blast[@]}" send rlb-ha0 "$secs" "$maca" "$macb" "$ipa" "$ipsink" > "$out/tx" 2>&1
    sleep 0.5   # what the forwarder still holds
    after=$(ip netns exec "$b" cat /sys/class/net/rlb-hb0/statistics/rx_packets)
    if [[ -n "$switch_pid" ]]; then
        # where the switch's time went: CPU per thread over the run, in % of one core
        thread_ticks "$switch_pid" > "$out/ticks.after"
        awk -v hz="$(getconf CLK_TCK)" -v s="$secs" 'NR == FNR { b[$2] += $1; next } { a[$2] += $1 }
            END { for (n in a) if (a[n] - b[n] > 0) printf "%s %.0f%%\n", n, (a[n] - b[n]) * 100 / hz / (s + 0.5) }' \
            "$out/ticks.before" "$out/ticks.after" | sort -k2 -rn | head -4 | paste -sd' ' | sed 's/^/      switch threads: /' >&2
        # frames the switch lost over the run: at its sockets (the kernel's count) or between its threads
        switch_counts > "$out/counts.after"
        awk 'NR == FNR { b[$1] = $2; next } { d = $2 - b[$1]; if (d > 0 && $1 ~ /DROPPED|ERRORS|FRAMES_SENT/) printf "%s %d ", $1, d }' \
            "$out/counts.before" "$out/counts.after" | sed 's/^/      switch ports: /; s/$/\n/' >&2
    fi
    local tx_secs
    tx_secs=$(awk '/^tx:/ {print $7}' "$out/tx")
    echo "      $(cat "$out/tx"); arrived $((after - before))" >&2
    awk -v n=$((after - before)) -v s="$tx_secs" 'BEGIN { printf "%.1f", (s > 0) ? n / s / 1e3 : 0 }'
}

# tcp_run: prints iperf3's received Gb/s
tcp_run() {
    ip netns exec "$b" iperf3 -s -1 -D >/dev/null 2>&1 || true
    sleep 0.3
    ip netns exec "$a" iperf3 -c "$ipb" -t "$secs" -J > "$out/tcp.json" 2>/dev/null || true
    python3 -c 'import json,sys
try: print("%.3f" % (json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"] / 1e9))
except Exception: print("0")' "$out/tcp.json"
}

declare -A frames tcp
read -r -a forwarders <<< "${FORWARDERS:-af_packet pcap bridge}"
for ((r = 1; r <= runs; r++)); do
    for f in "${forwarders[@]}"; do
        start_forwarder "$f"
        fr=$(frames_run)
        tc=$(tcp_run)
        stop_forwarder "$f"
        frames[$f]+="$fr "
        tcp[$f]+="$tc "
        echo "run $r $f: 4 KB RoCE frames ${fr} kfps, iperf3 TCP ${tc} Gb/s"
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { printf "%.2f", (y > 0) ? x / y : 0 }'; }
fb=$(echo "${frames[bridge]:-}" | median) tb=$(echo "${tcp[bridge]:-}" | median)
echo
echo "median of $runs: | forwarder | 4 KB RoCE kfps | iperf3 TCP Gb/s | frames / bridge | TCP / bridge |"
for f in "${forwarders[@]}"; do
    fm=$(echo "${frames[$f]}" | median) tm=$(echo "${tcp[$f]}" | median)
    echo "  | $f | $fm | $tm | $(ratio "$fm" "$fb") | $(ratio "$tm" "$tb") |"
done
