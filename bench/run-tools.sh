#!/usr/bin/env bash
# The perftest tools beside the engine (issue 34): what `rocelab ib_*_lat` and `ib_write_bw` print
# with --in-process, each beside the engine's or the data path's own number measured in the same
# invocation, and the ratio against the goal.
#
#   latency: the NIC's own 8 B ping-pong of the same verb (NicWriteLatencyBench -Dbench.verb=write,
#            send or read; both NICs on one thread, one application thread playing both sides),
#            busy-poll (-Dbench.nicIdle=spin) and sleeping (the default epoll loop); each tool's
#            t_typical beside its median. perftest reports half a round trip for write and send and a
#            whole one for read (its rtt_factor); the engine's read ping-pong is two READs an
#            iteration, so its half is one READ's round trip too. Goal: busy-poll t_typical <= 2x the
#            engine's busy-poll median.
#   bandwidth: the copy + CRC floor (WriteFloorMain: the data path's copies and CRCs, nothing else)
#            beside ib_write_bw -s 65536 -D SECONDS. Goal: >= 0.8 with --busy-poll, >= 0.65 by default.
#
# Usage: bench/run-tools.sh [RUNS (default 3)] [SECONDS (default 3)] [ITERS (default 20000)]
# Each of RUNS rounds runs every program once, one after the other, in the same order; the summary
# gives the median and range of each ratio over the rounds (the machine may be shared: read the
# ratios, and the load average printed at the start and the end).
# Environment: SKIP_BUILD=1 uses the jars as they are; ROCELAB_JAR=path runs another build of the
# tools (one copied aside before a change, to compare); JAVA_OPTS adds JVM flags to the tools' runs
# (e.g. -XX:StartFlightRecording=...); ONLY=lat or ONLY=bw runs one half. The UDP endpoint mode over
# veth needs root and namespaces: bench/run-udp.sh. Exit status 0 whatever the numbers are: a
# benchmark reports, it does not gate.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${1:-3}"
secs="${2:-3}"
iters="${3:-20000}"
only="${ONLY:-}"
java_opts=(-Dio.netty.leakDetection.level=disabled)
read -r -a tool_opts <<< "${JAVA_OPTS:-}"
jar="${ROCELAB_JAR:-lab/target/rocelab.jar}"
bench_jar="bench/target/benchmarks.jar"
out=$(mktemp -d /tmp/rl-tools.XXXXXX)
trap 'rm -rf "$out"' EXIT

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    mvn -B -ntp -q -o package -DskipTests -pl lab,bench -am
fi

echo "run-tools: $runs rounds; $(nproc) CPUs; $(java -version 2>&1 | head -1); load $(cut -d' ' -f1-3 /proc/loadavg)"

# the engine's ping-pong: prints "median X us"
engine_lat() {
    java "${java_opts[@]}" "$@" -Dbench.loops=1 -Dbench.iters="$iters" -cp "$bench_jar" \
        io.rocelab.bench.nic.NicWriteLatencyBench 2>&1 | awk '/^median /{print $2}'
}
# a latency tool: t_typical, the fifth column of the line after the header
tool_lat() {
    java "${java_opts[@]}" "${tool_opts[@]}" -jar "$jar" "$1" --in-process "${@:2}" -n "$iters" 2>&1 \
        | awk 'h && NF >= 9 {print $5; exit} /t_typical/ {h = 1}'
}
# ib_write_bw: BW average, the fourth column of the line after the header
tool_bw() {
    java "${java_opts[@]}" "${tool_opts[@]}" -jar "$jar" ib_write_bw --in-process -s 65536 -D "$secs" \
        --report_gbits "$@" 2>&1 | awk 'h && NF >= 5 {print $4; exit} /BW average/ {h = 1}'
}
floor_bw() {
    java "${java_opts[@]}" -cp "$bench_jar" io.rocelab.bench.nic.WriteFloorMain "$secs" 65536 4096 \
        | awk '{print $2}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
# median, min and max of the numbers in a file
stats() { sort -g "$1" | awk '{v[NR] = $1} END { if (NR == 0) {print "-"; exit}
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f (%.2f-%.2f)", m, v[1], v[NR] }'; }

for r in $(seq 1 "$runs"); do
    echo "--- round $r ($(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1 /proc/loadavg))"
    if [[ "$only" != bw ]]; then
        for t in ib_write_lat ib_send_lat ib_read_lat; do
            v=${t#ib_}
            v=${v%_lat}
            e_spin=$(engine_lat -Dbench.verb="$v" -Dbench.nicIdle=spin)
            e_park=$(engine_lat -Dbench.verb="$v" -Dbench.nicIdle=park)
            b=$(tool_lat "$t" --busy-poll)
            d=$(tool_lat "$t")
            rb=$(ratio "$b" "$e_spin")
            rd=$(ratio "$d" "$e_park")
            printf '  %-13s t_typical: --busy-poll %6s us = %5sx engine %s us (goal <= 2)   default %6s us = %5sx engine sleeping %s us\n' \
                "$t" "$b" "$rb" "$e_spin" "$d" "$rd" "$e_park"
            echo "$rb" >> "$out/$t.busy"
            echo "$rd" >> "$out/$t.default"
        done
    fi
    if [[ "$only" != lat ]]; then
        f=$(floor_bw)
        b=$(tool_bw --busy-poll)
        d=$(tool_bw)
        rb=$(ratio "$b" "$f")
        rd=$(ratio "$d" "$f")
        printf '  ib_write_bw -s 65536 -D %s: --busy-poll %s Gb/s = %s of the floor (goal >= 0.8)   default %s Gb/s = %s (goal >= 0.65); copy+CRC floor %s Gb/s\n' \
            "$secs" "$b" "$rb" "$d" "$rd" "$f"
        echo "$rb" >> "$out/bw.busy"
        echo "$rd" >> "$out/bw.default"
    fi
done

echo "=== summary over $runs rounds: median (range); load $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ "$only" != bw ]]; then
    for t in ib_write_lat ib_send_lat ib_read_lat; do
        printf '  %-13s t_typical / the engine'"'"'s ping-pong: --busy-poll %s (goal <= 2), default %s\n' \
            "$t" "$(stats "$out/$t.busy")" "$(stats "$out/$t.default")"
    done
fi
if [[ "$only" != lat ]]; then
    printf '  ib_write_bw / copy+CRC floor: --busy-poll %s (goal >= 0.8), default %s (goal >= 0.65)\n' \
        "$(stats "$out/bw.busy")" "$(stats "$out/bw.default")"
fi
