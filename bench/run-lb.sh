#!/usr/bin/env bash
# Builds the benchmark jar and runs the switch's load-balancing benchmarks: ns per packet of each
# mode (ecmp, flowlet, flowlet-quality, per-packet) beside static ECMP from the same run. Extra
# arguments go to JMH, e.g.  bench/run-lb.sh -i 10
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -B -q -pl bench -am package -DskipTests
exec java -cp bench/target/benchmarks.jar io.rocelab.bench.sw.LoadBalancingBench "$@"
