#!/bin/bash
# pair.sh - two Soft-RoCE VMs linked back to back: a server command in host 1 (10.77.0.1) and a
# client command in host 2 (10.77.0.2), booted at the same time.
#
# Usage: pair.sh [--timeout S] 'SERVER COMMAND' 'CLIENT COMMAND'
#   Wrap the client in 'client-retry SECONDS ...' (a helper in the VM) so that it waits for the
#   server to listen. Quote so that $(gid-index 4) is expanded inside the VM, e.g.
#     interop/pair.sh 'ibv_rc_pingpong -g $(gid-index 4)' \
#                     'client-retry 60 ibv_rc_pingpong -g $(gid-index 4) 10.77.0.1'
#   The two VMs' frames go straight from one qemu to the other (UDP on 127.0.0.1, ports chosen
#   here); to put something in the middle (a relay, a soft switch) use boot-vm.sh directly.
# Prints both outputs and the timings; exit 0 when both commands exited 0.
# Run directories: $WORK/run/pair-server and $WORK/run/pair-client.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${ROCELAB_INTEROP_WORK:-$HERE/../target/interop}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

TIMEOUT=300
if [ "${1:-}" = --timeout ]; then TIMEOUT=$2; shift 2; fi
[ $# -eq 2 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
SERVER_CMD=$1 CLIENT_CMD=$2

# two free UDP ports on 127.0.0.1 (bound and released by the kernel's ephemeral allocator)
free_udp_port() {
  python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
    shuf -i 20000-32000 -n 1
}
P1=$(free_udp_port); P2=$(free_udp_port)
while [ "$P2" = "$P1" ]; do P2=$(free_udp_port); done

"$HERE/build-initramfs.sh"
S=$WORK/run/pair-server C=$WORK/run/pair-client
stop() {
  for d in "$S" "$C"; do
    [ -s "$d/qemu.pid" ] && kill "$(cat "$d/qemu.pid")" 2>/dev/null || true
  done
}
trap stop EXIT INT TERM

T0=$(date +%s.%N)
"$HERE/boot-vm.sh" --run "$S" --timeout "$TIMEOUT" 1 "$P1" "$P2" "$SERVER_CMD" 2>/dev/null &
PS=$!
"$HERE/boot-vm.sh" --run "$C" --timeout "$TIMEOUT" 2 "$P2" "$P1" "$CLIENT_CMD" 2>/dev/null &
PC=$!
wait "$PC" || true
TC=$(date +%s.%N)
wait "$PS" || true
TS=$(date +%s.%N)

rc=0
for side in server client; do
  d=$WORK/run/pair-$side
  r=$(cat "$d/cmd.rc" 2>/dev/null || echo "none (VM did not finish)")
  echo "==== $side: exit $r"
  grep -a 'ROCELAB-VM:' "$d/console.log" 2>/dev/null | tr -d '\r' | sed 's/^.*ROCELAB-VM:/  vm:/'
  cat "$d/cmd.out" 2>/dev/null || true
  [ "$r" = 0 ] || rc=1
done
awk -v a="$T0" -v c="$TC" -v s="$TS" \
  'BEGIN { printf "==== wall time: client VM %.1f s, server VM %.1f s\n", c - a, s - a }'
exit $rc
