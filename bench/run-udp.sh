#!/usr/bin/env bash
# UDP endpoint mode benchmark (issue 5, DESIGN.md section 9). Needs root (ip netns), iproute2 and
# Linux with UDP GSO/GRO (4.18 / 5.0). Builds with reactor flags (no mvn install), then:
#
#  1. two namespaces rlu-ns1 (10.99.0.1) and rlu-ns2 (10.99.0.2) joined by a veth pair
#     rlu-v1/rlu-v2, MTU 9000 (a 4096-byte RoCE MTU packet is 4140 bytes of IP: it fits whole,
#     and GSO buffers of 64 KB are allowed on the path);
#  2. RUNS times, one after the other:
#     a. floor: a plain Netty epoll UDP blaster (GSO sender in ns1, GRO receiver in ns2) with
#        4112-byte datagrams, the size of rocelab's WRITE MIDDLE packets at MTU 4096 (BTH 12 +
#        payload 4096 + ICRC 4), 4 MiB socket buffers as the endpoint port asks, for SECONDS;
#        payload Gb/s at the receiver;
#     b. WRITE-shaped floor: the same blaster sending the datagrams of 64 KB RDMA WRITEs, a
#        4128-byte datagram (the FIRST, with its RETH) before each GSO buffer of 15 x 4112 B; IBA
#        keeps the FIRST out of the GSO buffer (UdpBlasterFloor says why), so this is the kernel
#        and Netty work any RoCE endpoint on UDP sockets pays for this test;
#     c. rocelab ib_write_bw --udp-endpoint: server in ns2, client in ns1, 64 KB messages,
#        -D SECONDS, perftest's defaults otherwise (-u 14) plus EXTRA flags if given;
#     and for each program the CPU time it used (user + system, all threads, read from /proc every
#     quarter second) over the middle of its run (its last SECONDS, less one second at each end),
#     per GB of payload delivered: a loaded machine slows the wall clock, much less this;
#  3. with INPROCESS=1 in the environment, once: rocelab ib_write_bw --in-process beside the
#     copy+CRC floor (bench/nic WriteDataPathFloor).
#
# It prints each run, then the median and range of the ratios rocelab / floor and rocelab /
# WRITE-shaped floor (the goal, >= 0.5, is judged against the latter: docs/performance.md says why).
# Usage: bench/run-udp.sh [SECONDS (default 10)] [RUNS (default 3)] [EXTRA ib_write_bw flags...]
# Pinning: with two or more CPUs and taskset, everything in ns1 (floor sender, rocelab client) runs on
# CPU 0 and everything in ns2 (floor receiver, rocelab server) on CPU 1, the floor exactly as rocelab,
# as one pins perftest with taskset. Unpinned, the busy threads share two CPUs and the scheduler moves
# them on wake-ups, each move leaving the copies on a cold cache. On a 2-vCPU VM both programs ran
# 5-30 % faster pinned, with less CPU per byte, and the ratio stayed the same within the noise
# (0.35-0.41 pinned, 0.35-0.37 unpinned, alternating runs). PIN=0 turns it off.
# Environment: SKIP_BUILD=1 uses the jars as they are; ROCELAB_JAR=path runs another build of the
# tool (e.g. one copied aside before a change, to compare in alternate runs), BENCH_JAR=path another
# benchmarks.jar for the floor; INPROCESS=1 adds step 3.
# The namespaces are removed on exit, also after a failure. Exit status 0 whatever the numbers
# are: a benchmark reports, it does not gate.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
secs="${1:-10}"
runs="${2:-3}"
shift $(( $# < 2 ? $# : 2 ))
extra=("$@")
ns1=rlu-ns1 ns2=rlu-ns2 ip1=10.99.0.1 ip2=10.99.0.2
java_opts=(-Dio.netty.leakDetection.level=disabled)
out=$(mktemp -d /tmp/rlu-bench.XXXXXX)

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

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    mvn -B -q -o -pl lab,bench -am package -DskipTests
fi
# counters (drops, retries, GSO sends) are printed to stderr at the end of each rocelab run
# ROCELAB_JAR: another build of the tool to compare (e.g. one copied aside before a change)
pin1=() pin2=() pinned="not pinned"
if [[ "${PIN:-1}" != 0 ]] && (( $(nproc) >= 2 )) && command -v taskset >/dev/null; then
    pin1=(taskset -c 0) pin2=(taskset -c 1) pinned="pinned: ns1 on CPU 0, ns2 on CPU 1"
fi
rocelab=(java "${java_opts[@]}" -Drocelab.counters=true -jar "${ROCELAB_JAR:-lab/target/rocelab.jar}")
bench=(java "${java_opts[@]}" -cp "${BENCH_JAR:-bench/target/benchmarks.jar}")

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
echo "kernel $(uname -r), net.core.rmem_max $(cat /proc/sys/net/core/rmem_max) wmem_max $(cat /proc/sys/net/core/wmem_max)," \
    "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), ${runs} runs of ${secs} s, extra flags: ${extra[*]:-none}," \
    "$pinned"

# cpu_sampler FILE PID...: every quarter second "time pid ticks" (utime + stime, all threads) until the
# processes are gone. Bash builtins only ($EPOCHREALTIME, read, a read timeout on a FIFO for the
# pause): a fork per sample (awk, date, sleep) costs milliseconds of CPU in a small VM, taken from
# the pinned programs being measured.
cpu_sampler() {
    local file=$1; shift
    local tick="$out/tick.$BASHPID" fd
    mkfifo "$tick"
    exec {fd}<>"$tick"   # read-write: the open does not wait for a writer, and no writer ever comes
    : > "$file"
    while :; do
        local alive=0 now p stat
        local -a fields
        now=$EPOCHREALTIME
        for p in "$@"; do
            if read -r stat 2>/dev/null < "/proc/$p/stat"; then
                # fields after the ") " of the command name: utime is the 12th, stime the 13th
                read -r -a fields <<< "${stat##*) }"
                echo "$now $p $(( fields[11] + fields[12] ))" >> "$file"
                alive=1
            fi
        done
        [[ $alive == 1 ]] || break
        read -r -t 0.25 -u "$fd" _ || true
    done
    exec {fd}<&-
    rm -f "$tick"
}
# cpu_seconds FILE PID FROM TO: CPU seconds PID used between two times (epoch seconds)
cpu_seconds() {
    awk -v p="$2" -v a="$3" -v b="$4" -v hz="$(getconf CLK_TCK)" '
        $2 == p && $1 <= a { ta = $3 } $2 == p && $1 <= b { tb = $3 }
        END { printf "%.3f", (tb - ta) / hz }' "$1"
}
# ns_per_byte CPU_SECONDS GBPS SECONDS: CPU ns per payload byte delivered
ns_per_byte() { awk -v c="$1" -v g="$2" -v s="$3" 'BEGIN { printf "%.3f", (g > 0 && s > 0) ? c * 1e9 / (g * 1e9 / 8 * s) : 0 }'; }

rcvbuf_errors() { ip netns exec "$ns2" awk '/^Udp:/ {n++; if (n == 2) print $6}' /proc/net/snmp; }
inner=$(( secs > 4 ? secs - 2 : secs ))   # the middle of a run, where CPU time is read

# floor_run N [FIRST_BYTES]: sets floor (Gb/s), floor_tx_ns, floor_rx_ns (CPU ns per delivered payload
# byte); with FIRST_BYTES, a datagram of that size goes before each GSO buffer
floor_run() {
    local n=$1 first=${2:-}
    ip netns exec "$ns2" ${pin2[@]+"${pin2[@]}"} "${bench[@]}" io.rocelab.bench.udp.UdpBlasterFloor receive "$ip2" 4791 $((secs + 30)) \
        > "$out/floor-rx.$n" 2>&1 &
    local rx=$!
    local waited=0
    until grep -q 'listening' "$out/floor-rx.$n" 2>/dev/null || ((waited >= 120)); do
        sleep 0.5
        waited=$((waited + 1))
    done
    ip netns exec "$ns1" ${pin1[@]+"${pin1[@]}"} "${bench[@]}" io.rocelab.bench.udp.UdpBlasterFloor send "$ip1" "$ip2" 4791 "$secs" 4112 \
        $first > "$out/floor-tx.$n" 2>&1 &
    local tx=$!
    cpu_sampler "$out/floor-cpu.$n" "$tx" "$rx" &
    local sampler=$!
    wait "$tx" || true
    local end
    end=$(date +%s.%N)
    wait "$rx" || true
    wait "$sampler" || true
    local from to
    from=$(awk -v e="$end" -v s="$secs" 'BEGIN { printf "%.3f", e - s + 1 }')
    to=$(awk -v e="$end" 'BEGIN { printf "%.3f", e - 1 }')
    floor=$(awk '/^floor-rx: [0-9]/ {print $2}' "$out/floor-rx.$n")
    floor=${floor:-0}
    floor_tx_ns=$(ns_per_byte "$(cpu_seconds "$out/floor-cpu.$n" "$tx" "$from" "$to")" "$floor" "$inner")
    floor_rx_ns=$(ns_per_byte "$(cpu_seconds "$out/floor-cpu.$n" "$rx" "$from" "$to")" "$floor" "$inner")
    echo "  floor${first:+ (WRITE-shaped)}    $(grep '^floor-rx: [0-9]' "$out/floor-rx.$n" | sed 's/^floor-rx: //'); sent $(grep '^floor-tx:' "$out/floor-tx.$n" | sed 's/^floor-tx: //')"
}

# endpoint_run N: sets bw (Gb/s), tool_tx_ns, tool_rx_ns, retries
endpoint_run() {
    local n=$1
    local drops_before
    drops_before=$(rcvbuf_errors)
    ip netns exec "$ns2" ${pin2[@]+"${pin2[@]}"} "${rocelab[@]}" ib_write_bw --udp-endpoint "$ip2" -s 65536 -D "$secs" --report_gbits \
        ${extra[@]+"${extra[@]}"} > "$out/server.$n" 2>&1 &
    local srv=$!
    # a JVM on a loaded machine can take many seconds to listen: wait for it, not for a fixed time
    local waited=0
    until grep -q 'Waiting for client' "$out/server.$n" 2>/dev/null || ((waited >= 120)); do
        sleep 0.5
        waited=$((waited + 1))
    done
    ip netns exec "$ns1" ${pin1[@]+"${pin1[@]}"} "${rocelab[@]}" ib_write_bw --udp-endpoint "$ip1" -s 65536 -D "$secs" --report_gbits \
        ${extra[@]+"${extra[@]}"} "$ip2" > "$out/client.$n" 2>&1 &
    local cli=$!
    cpu_sampler "$out/tool-cpu.$n" "$cli" "$srv" &
    local sampler=$!
    wait "$cli" || true
    local end
    end=$(date +%s.%N)
    # the server ends once the client has sent its report; one that waits on is stopped
    local left=0
    while kill -0 "$srv" 2>/dev/null && ((left < 60)); do
        sleep 0.5
        left=$((left + 1))
    done
    kill "$srv" 2>/dev/null || true
    wait "$srv" || true
    wait "$sampler" || true
    local from to
    # the client prints its result and closes within a fraction of a second of its -D window
    from=$(awk -v e="$end" -v s="$secs" 'BEGIN { printf "%.3f", e - s }')
    to=$(awk -v e="$end" 'BEGIN { printf "%.3f", e - 2 }')
    bw=$(awk '/#bytes/ {getline; print $4}' "$out/client.$n")
    bw=${bw:-0}
    tool_tx_ns=$(ns_per_byte "$(cpu_seconds "$out/tool-cpu.$n" "$cli" "$from" "$to")" "$bw" "$inner")
    tool_rx_ns=$(ns_per_byte "$(cpu_seconds "$out/tool-cpu.$n" "$srv" "$from" "$to")" "$bw" "$inner")
    retries=$(grep -o 'COMPLETER_RETRY_ERR=[0-9]*' "$out/client.$n" | cut -d= -f2 || true)
    retries=${retries:-0}
    echo "  rocelab  $bw Gb/s, client local ACK timeouts (completer_retry_err) $retries," \
        "ns2 receive-buffer drops $(( $(rcvbuf_errors) - drops_before ))"
    sed -n 's/^ *\(.*counters:\)/           client \1/p' "$out/client.$n"
    sed -n 's/^ *\(.*counters:\)/           server \1/p' "$out/server.$n"
}

: > "$out/results"
for ((i = 1; i <= runs; i++)); do
    echo "== run $i/$runs, load $(cut -d' ' -f1 /proc/loadavg)"
    floor_run "w$i" 4128
    wfloor=$floor wfloor_tx_ns=$floor_tx_ns wfloor_rx_ns=$floor_rx_ns
    floor_run "$i"
    endpoint_run "$i"
    printf '  run %d: floor %6.2f Gb/s (CPU %s ns/B send, %s ns/B receive)   rocelab %6.2f Gb/s (CPU %s ns/B client, %s ns/B server)   ratio %.2f\n' \
        "$i" "$floor" "$floor_tx_ns" "$floor_rx_ns" "$bw" "$tool_tx_ns" "$tool_rx_ns" \
        "$(awk -v u="$bw" -v f="$floor" 'BEGIN { print (f > 0 ? u / f : 0) }')"
    printf '         WRITE-shaped floor %6.2f Gb/s (CPU %s ns/B send, %s ns/B receive)   ratio %.2f\n' \
        "$wfloor" "$wfloor_tx_ns" "$wfloor_rx_ns" "$(awk -v u="$bw" -v f="$wfloor" 'BEGIN { print (f > 0 ? u / f : 0) }')"
    echo "$floor $bw $floor_tx_ns $floor_rx_ns $tool_tx_ns $tool_rx_ns $retries $wfloor $wfloor_tx_ns $wfloor_rx_ns" >> "$out/results"
done

if [[ "${INPROCESS:-0}" == 1 ]]; then
    echo "== in-process: copy+CRC floor, 64 KB messages, MTU 4096, ${secs} s"
    copy_line=$("${bench[@]}" io.rocelab.bench.nic.WriteFloorMain "$secs" 65536 4096)
    echo "$copy_line"
    copy=$(awk '{print $2}' <<<"$copy_line")
    echo "== rocelab ib_write_bw --in-process, 64 KB messages, ${secs} s"
    "${rocelab[@]}" ib_write_bw --in-process -s 65536 -D "$secs" --report_gbits | tee "$out/inproc" \
        | sed -n '/#bytes/,+1p'
    inproc=$(awk '/#bytes/{getline; print $4}' "$out/inproc")
    awk -v i="$inproc" -v c="$copy" 'BEGIN {
        printf "in-process    rocelab %6.2f   floor (copy + CRC loop) %6.2f   ratio %.2f\n", i, c, (c > 0 ? i / c : 0) }'
fi

echo
echo "== summary over ${runs} runs (payload Gb/s; ratio = rocelab / floor of the same run; goal >= 0.5 against"
echo "   the WRITE-shaped floor, which sends the datagrams ib_write_bw -s 65536 must send)"
awk '
    function median(a, n,   i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function range(a, n,   i, lo, hi) {
        lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
        return sprintf("%.2f-%.2f", lo, hi)
    }
    { n++; f[n] = $1; u[n] = $2; r[n] = ($1 > 0 ? $2 / $1 : 0)
      ftx[n] = $3; frx[n] = $4; ttx[n] = $5; trx[n] = $6; ret[n] = $7
      ctx[n] = ($3 > 0 ? $5 / $3 : 0); crx[n] = ($4 > 0 ? $6 / $4 : 0)
      w[n] = $8; wr[n] = ($8 > 0 ? $2 / $8 : 0); wtx[n] = $9; wrx[n] = $10 }
    END {
        if (n == 0) exit
        printf "floor (epoll GSO/GRO blaster) %6.2f Gb/s median, range %s\n", median(f, n), range(f, n)
        printf "rocelab --udp-endpoint        %6.2f Gb/s median, range %s\n", median(u, n), range(u, n)
        printf "ratio to the plain floor      %6.2f median, range %s\n", median(r, n), range(r, n)
        printf "local ACK timeouts per run    %6.1f median, range %s\n", median(ret, n), range(ret, n)
        printf "CPU ns per payload byte: floor send %.3f / receive %.3f, rocelab client %.3f / server %.3f (medians)\n",
            median(ftx, n), median(frx, n), median(ttx, n), median(trx, n)
        printf "CPU per byte, rocelab / floor: client %.2f, server %.2f (medians)\n", median(ctx, n), median(crx, n)
        printf "WRITE-shaped floor (a 4128 B datagram before each GSO buffer, as a 64 KB WRITE sends them):\n"
        printf "  floor                       %6.2f Gb/s median, range %s; CPU ns/B send %.3f / receive %.3f\n",
            median(w, n), range(w, n), median(wtx, n), median(wrx, n)
        printf "  ratio (goal >= 0.5)         %6.2f median, range %s\n", median(wr, n), range(wr, n)
    }' "$out/results"
echo "(raw outputs in $out)"
