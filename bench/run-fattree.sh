#!/usr/bin/env bash
# Builds the benchmark jar and runs the fabric-scale benchmark (issue 16 section 5): k-ary fat trees
# of soft NICs and soft switches in virtual time, an incast plus web-search background load, printed
# beside the bare virtual-time scheduler's event rate of the same run, with the heap in use.
# Properties, e.g.
#   bench/run-fattree.sh -Dbench.k=4,8,16 -Dbench.us=1000 -Dbench.load=0.3 -Dbench.cc=dcqcn -Dbench.threads=1,2
# bench.threads: each k once per thread count, the fabric split into logical processes (a leaf and its
# hosts, a spine, a core switch each) run on that many threads (default 1 and the machine's cores; 0 is
# the fabric on one scheduler, unsplit); the speed-up over the first count and whether the events and
# the flows' results were the same are printed per k.
# Builds through the reactor into target/ only (no install: ~/.m2 stays untouched). 4 GB of heap,
# the issue's bound. Exit status 0 whatever the numbers are: a benchmark reports, it does not gate.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -B -q -o package -DskipTests -pl bench -am
# leak detection off: sampling leak records is a test aid, not part of the data path. Transparent huge
# pages where the kernel gives them on request (madvise or always): at k=16 each event's first touch of
# a device's state misses the TLB as well as the cache, 15-17 % of the CPU (docs/performance.md)
thp=()
if grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
  thp=(-XX:+UseTransparentHugePages)
fi
java -Xmx4g "${thp[@]}" -Dio.netty.leakDetection.level=disabled "$@" -cp bench/target/benchmarks.jar \
  io.rocelab.bench.fabric.FatTreeScaleBench
