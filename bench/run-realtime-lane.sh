#!/usr/bin/env bash
# The realtime lane (the tests tagged "realtime", docs/design.md, Testing) run N times in a row, to
# measure how it holds up on a loaded machine: per run PASS or FAIL, its wall time, the load average
# before and after, and the tests that failed; at the end the tally (passes, the longest run of
# passes in a row, the run of passes it ended on). Each run is the lane alone, from the modules'
# own classes (test-compile; no install):
#
#   mvn -B -ntp -o -pl fabric,soft-switch,topology,perftest,lab -am test-compile surefire:test@realtime
#
# Usage: bench/run-realtime-lane.sh [N (default 20)] [MODULES (default fabric,soft-switch,topology,perftest,lab)]
# Environment: LOG_DIR (default target/realtime-lane) keeps each run's Maven log and surefire reports
# (run-K.log, run-K-reports/). The lab module's netns tests need root (elsewhere they skip, loudly).
# It loads nothing itself: run it beside the load you want to measure (another build, stress-ng).
# Exit status 0 when every run passed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${1:-20}"
modules="${2:-fabric,soft-switch,topology,perftest,lab}"
logs="${LOG_DIR:-$root/target/realtime-lane}"
mkdir -p "$logs"

load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "realtime lane x$runs on $(nproc) cores, modules $modules, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "mvn -B -ntp -o -pl $modules -am test-compile surefire:test@realtime"
passed=0 streak=0 best=0
for k in $(seq 1 "$runs"); do
    before="$(load)"
    start=$(date +%s)
    log="$logs/run-$k.log"
    for m in ${modules//,/ }; do
        rm -f "$m"/target/surefire-reports/*-realtime.*
    done
    mvn -B -ntp -o -pl "$modules" -am test-compile surefire:test@realtime >"$log" 2>&1
    status=$?
    secs=$(($(date +%s) - start))
    after="$(load)"
    mkdir -p "$logs/run-$k-reports"
    for m in ${modules//,/ }; do
        cp "$m"/target/surefire-reports/*-realtime.txt "$logs/run-$k-reports/" 2>/dev/null
    done
    tests=$(grep -h "^Tests run:" "$logs/run-$k-reports/"*.txt 2>/dev/null \
        | awk -F'[:,]' '{n += $2; f += $4 + $6; s += $8} END {printf "%d tests, %d failed, %d skipped", n, f, s}')
    if [ "$status" -eq 0 ]; then
        passed=$((passed + 1)) streak=$((streak + 1))
        [ "$streak" -gt "$best" ] && best=$streak
        verdict=PASS failing=""
    else
        streak=0 verdict=FAIL
        failing=$(grep -l -E "FAILURE|ERROR" "$logs/run-$k-reports/"*.txt 2>/dev/null | xargs -r -n1 basename \
            | sed 's/-realtime.txt//' | tr '\n' ' ')
        [ -z "$failing" ] && failing="(the build: see $log)"
    fi
    printf '%s run %d/%d %s %4d s  load %s -> %s  %s  %s\n' "$(date +%H:%M:%S)" "$k" "$runs" "$verdict" "$secs" \
        "$before" "$after" "$tests" "$failing"
done
echo "tally: $passed of $runs passed; longest run of passes in a row $best; the last $streak in a row"
[ "$passed" -eq "$runs" ]
