#!/usr/bin/env bash
# Builds the benchmark jar and runs the codec benchmarks, printing each result beside its floor
# from the same run. Extra arguments go to JMH, e.g.  bench/run-codec.sh -p buffer=pooledHeap -i 10
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -B -q -pl bench -am package -DskipTests
exec java -cp bench/target/benchmarks.jar io.rocelab.bench.CodecBench "$@"
