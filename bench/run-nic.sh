#!/usr/bin/env bash
# Builds the benchmark jar and runs the in-process soft-NIC benchmarks (issue 3, DESIGN.md section 9):
# RC WRITE bandwidth of 64 KB messages beside the copy+CRC floor, then the 8-byte WRITE ping-pong
# latency beside the hand-off floor of the same runtime, then the CPU cost per packet of the same
# WRITE stream on one virtual-time thread beside the floor's (NicWriteCpuBench). Properties go to all, e.g.
#   bench/run-nic.sh -Dbench.seconds=20 -Dbench.iters=50000
#   bench/run-nic.sh -Dbench.nicIdle=spin -Dbench.loops=1     # busy-poll, both NICs on one thread
# Builds through the reactor into target/ only (no install: ~/.m2 stays untouched).
# Exit status 0 whatever the numbers are: a benchmark reports, it does not gate.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -B -q -o package -DskipTests -pl bench -am
# leak detection off: sampling leak records is a test aid, not part of the data path
java -Dio.netty.leakDetection.level=disabled "$@" -cp bench/target/benchmarks.jar io.rocelab.bench.nic.NicWriteBandwidthBench
echo
java -Dio.netty.leakDetection.level=disabled "$@" -cp bench/target/benchmarks.jar io.rocelab.bench.nic.NicWriteLatencyBench
echo
java -Dio.netty.leakDetection.level=disabled "$@" -cp bench/target/benchmarks.jar io.rocelab.bench.nic.NicWriteCpuBench
