#!/bin/bash
# boot-vm.sh - boot one Soft-RoCE peer VM under qemu (TCG: no KVM, no root) and run one command.
#
# Usage: boot-vm.sh [options] HOST LPORT RPORT [COMMAND]
#   HOST     1..250: the VM is 10.77.0.HOST/24, fd77::HOST/64, MAC 52:54:00:77:00:<HOST in hex>
#   LPORT    UDP port on 127.0.0.1 on which qemu receives the VM's incoming frames
#   RPORT    UDP port on 127.0.0.1 to which qemu sends every frame the VM transmits
#            (qemu's "-netdev socket,udp=": one datagram = one Ethernet frame, from the destination
#            MAC on, no FCS). Point two VMs at each other (A: L=x R=y, B: L=y R=x) for a back-to-back
#            link, or both at a relay / soft switch.
#   COMMAND  run by the VM's /bin/sh (busybox) in /host once rxe0 is PORT_ACTIVE; default
#            'ibv_devinfo -v'. Inside the VM, 'gid-index 4' / 'gid-index 6' print the GID index of
#            the IPv4 / IPv6 address (for -g / -x / --gid-index).
# Options:
#   --run DIR      run directory (default $WORK/run/vmHOST), shared into the VM at /host (9p)
#   --timeout S    hard limit: qemu is killed after S seconds (default 300)
#   --mem MIB      guest memory (default 384)
#   --shell        interactive console instead of COMMAND (Ctrl-A X quits qemu)
#   --oob FORWARDS HOSTPORT:GUESTPORT[,HOSTPORT:GUESTPORT...], or '' for none:
#                  a second NIC, eth1 (10.0.2.15/24), on qemu's user networking, for the tools'
#                  out-of-band TCP exchange with a program on this host: the VM reaches the host's
#                  127.0.0.1:PORT at 10.0.2.2:PORT, and each HOSTPORT:GUESTPORT forwards
#                  127.0.0.1:HOSTPORT to a server tool listening on GUESTPORT in the VM. The RoCE
#                  traffic stays on eth0 (the UDP socket link); none of it goes through slirp.
#   --ip A.B.C.D/N eth0's IPv4 address instead of 10.77.0.HOST/24 (rxe's IPv4 GID follows it)
#   --ip6 X::Y/N   eth0's IPv6 address instead of fd77::HOST/64
#   --mac MAC      eth0's MAC instead of 52:54:00:77:00:<HOST in hex>
#   --route DESTS  A.B.C.D[/N][,...]: a route on eth0 to each, added before COMMAND runs
#   --router-mac MAC  with --route: a permanent neighbour entry to MAC for each destination (a
#                  routing switch's router MAC, as a lab gives its hosts); without it the VM ARPs
# Files in the run directory afterwards:
#   cmd.sh the command, cmd.out its output, cmd.rc its exit code, console.log the serial console,
#   qemu.pid qemu's process id (stop a VM with: kill "$(cat DIR/qemu.pid)").
# Exit code: qemu's (0 after the VM powered off; 137 when the timeout killed it). The command's own
# exit code is in cmd.rc. Runs in the foreground; start several with & and wait.
# WORK is $ROCELAB_INTEROP_WORK, default <project>/target/interop; build-initramfs.sh runs first
# (it returns at once when the image is up to date).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${ROCELAB_INTEROP_WORK:-$HERE/../target/interop}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

usage() { sed -n '4,37p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

RUN="" TIMEOUT=300 MEM=384 SHELL_MODE=0 OOB="" VM_IP="" VM_IP6="" VM_MAC="" ROUTES="" ROUTER_MAC=""
while [ $# -gt 0 ]; do
  case "$1" in
    --run) RUN=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --mem) MEM=$2; shift 2 ;;
    --shell) SHELL_MODE=1; shift ;;
    --oob) OOB=$2; OOB_GIVEN=1; shift 2 ;;
    --ip) VM_IP=$2; shift 2 ;;
    --ip6) VM_IP6=$2; shift 2 ;;
    --mac) VM_MAC=$2; shift 2 ;;
    --route) ROUTES=$2; shift 2 ;;
    --router-mac) ROUTER_MAC=$2; shift 2 ;;
    -h|--help) usage ;;
    --) shift; break ;;
    -*) echo "boot-vm: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -ge 3 ] || usage
HOST=$1 LPORT=$2 RPORT=$3
COMMAND=${4:-ibv_devinfo -v}
case "$HOST" in ''|*[!0-9]*) echo "boot-vm: HOST must be a number in 1..250" >&2; exit 2 ;; esac
[ "$HOST" -ge 1 ] && [ "$HOST" -le 250 ] || { echo "boot-vm: HOST must be in 1..250" >&2; exit 2; }
for p in "$LPORT" "$RPORT"; do
  case "$p" in ''|*[!0-9]*) echo "boot-vm: bad UDP port '$p'" >&2; exit 2 ;; esac
done

# --oob: one hostfwd per HOSTPORT:GUESTPORT, on 127.0.0.1 only (nothing else on the host reaches it)
OOB_NET=()
if [ -n "${OOB_GIVEN:-}" ]; then
  USER_NET="user,id=oob,net=10.0.2.0/24,host=10.0.2.2"
  for fwd in ${OOB//,/ }; do
    case "$fwd" in
      [0-9]*:[0-9]*) ;;
      *) echo "boot-vm: --oob wants HOSTPORT:GUESTPORT[,...], got '$fwd'" >&2; exit 2 ;;
    esac
    USER_NET="$USER_NET,hostfwd=tcp:127.0.0.1:${fwd%%:*}-:${fwd#*:}"
  done
  OOB_NET=(-netdev "$USER_NET" -device "virtio-net-pci,netdev=oob,mac=$(printf '52:54:00:02:00:%02x' "$HOST"),romfile=")
fi

command -v qemu-system-x86_64 >/dev/null || { echo "boot-vm: qemu-system-x86_64 not installed (interop/install-deps.sh)" >&2; exit 1; }
"$HERE/build-initramfs.sh" >&2
# shellcheck disable=SC1091
. "$WORK/vm.env"

RUN=${RUN:-$WORK/run/vm$HOST}
mkdir -p "$RUN"
RUN=$(cd "$RUN" && pwd)
rm -f "$RUN/cmd.sh" "$RUN/cmd.out" "$RUN/cmd.rc" "$RUN/console.log" "$RUN/qemu.pid"

MAC=${VM_MAC:-$(printf '52:54:00:77:00:%02x' "$HOST")}
IP4=${VM_IP:-10.77.0.$HOST/24}
IP6=${VM_IP6:-fd77::$HOST/64}
case "$IP4" in */*) ;; *) IP4=$IP4/32 ;; esac
case "$MAC" in [0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F]) ;;
  *) echo "boot-vm: --mac wants XX:XX:XX:XX:XX:XX, got '$MAC'" >&2; exit 2 ;; esac
# what COMMAND finds done: a route to each --route destination, via the router's MAC if given
PRELUDE=""
for dest in ${ROUTES//,/ }; do
  case "$dest" in [0-9]*.[0-9]*.[0-9]*.[0-9]*) ;; *) echo "boot-vm: --route wants A.B.C.D[/N][,...], got '$dest'" >&2; exit 2 ;; esac
  PRELUDE="${PRELUDE}/usr/sbin/ip route replace $dest dev eth0"$'\n'
  if [ -n "$ROUTER_MAC" ]; then
    PRELUDE="${PRELUDE}/usr/sbin/ip neigh replace ${dest%%/*} lladdr $ROUTER_MAC dev eth0 nud permanent"$'\n'
  fi
done
APPEND="console=ttyS0 loglevel=4 panic=-1 net.ifnames=0 mitigations=off tsc=unstable"
[ ${#OOB_NET[@]} -gt 0 ] && APPEND="$APPEND rocelab.oob=10.0.2.15/24"
APPEND="$APPEND rocelab.name=rxe$HOST rocelab.ip=$IP4 rocelab.ip6=$IP6 rocelab.mac=$MAC"
if [ "$SHELL_MODE" = 1 ]; then
  APPEND="$APPEND rocelab.shell=1"
  CONSOLE=(-serial mon:stdio)
else
  printf '%s%s\n' "$PRELUDE" "$COMMAND" > "$RUN/cmd.sh"
  CONSOLE=(-serial "file:$RUN/console.log")
fi

echo "boot-vm: host $HOST ($IP4, $IP6, $MAC) udp 127.0.0.1:$LPORT -> 127.0.0.1:$RPORT," \
     "run dir $RUN, timeout ${TIMEOUT}s" >&2
# timeout forwards TERM/INT to qemu and kills it with KILL when the time is up
exec timeout -s KILL "$TIMEOUT" qemu-system-x86_64 \
  -accel tcg -cpu qemu64 -smp 1 -m "$MEM" \
  -nodefaults -no-user-config -display none -no-reboot "${CONSOLE[@]}" \
  -kernel "$KERNEL" -initrd "$WORK/initramfs.cpio" -append "$APPEND" \
  -netdev "socket,id=net0,udp=127.0.0.1:$RPORT,localaddr=127.0.0.1:$LPORT" \
  -device "virtio-net-pci,netdev=net0,mac=$MAC,romfile=" \
  "${OOB_NET[@]}" \
  -fsdev "local,id=fs0,path=$RUN,security_model=none" \
  -device virtio-9p-pci,fsdev=fs0,mount_tag=host \
  -pidfile "$RUN/qemu.pid"
