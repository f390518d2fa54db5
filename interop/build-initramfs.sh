#!/bin/bash
# build-initramfs.sh - pack a tiny boot image for a Linux Soft-RoCE (rdma_rxe) peer VM.
#
# The image is Debian's own kernel (linux-image-amd64, 6.1) plus a busybox initramfs that holds
# the rdma_rxe module and its dependencies, libibverbs with the rxe provider, and the real tools
# (ibv_*_pingpong, ib_*_bw/lat, rping, ...). Its /init brings up eth0 and rxe0, runs one command
# and powers the VM off; see boot-vm.sh.
#
# Usage: build-initramfs.sh [--force]
#   Writes into WORK ($ROCELAB_INTEROP_WORK, default <project>/target/interop):
#     initramfs.cpio  the image, uncompressed (the guest unpacks it faster; ~15 MB)
#     vmlinux         the kernel decompressed from /boot/vmlinuz-*: qemu boots it through its PVH
#                     entry point, which skips the in-guest XZ decompression (~5 s under TCG)
#     vm.env          KVER=, KERNEL= (vmlinux, or /boot/vmlinuz-* if it could not be extracted)
#   Nothing is rebuilt when these exist and were made by this same script for the same kernel,
#   unless --force.
# Env: KVER  kernel version to use (default: the newest one in /lib/modules with rdma_rxe)
# Needs: the packages of install-deps.sh. No root, no network.
set -euo pipefail
# modprobe and depmod are in /usr/sbin, which a non-login environment may leave out of PATH; the
# sbin directories go first, as in root's usual PATH, so that a tool found in both (ip) is copied to
# the place the VM's init calls it from (/usr/sbin/ip)
export PATH="/usr/local/sbin:/usr/sbin:/sbin:$PATH"

HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${ROCELAB_INTEROP_WORK:-$HERE/../target/interop}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
IMAGE=$WORK/initramfs.cpio
ENVFILE=$WORK/vm.env

FORCE=0
case "${1:-}" in
  --force) FORCE=1 ;;
  "") ;;
  *) echo "usage: build-initramfs.sh [--force]" >&2; exit 2 ;;
esac

die() { echo "build-initramfs: $*" >&2; exit 1; }

# ---------------------------------------------------------------- which kernel
if [ -z "${KVER:-}" ]; then
  KVER=""
  for dir in /lib/modules/*/; do
    v=$(basename "$dir")
    if [ -f "/boot/vmlinuz-$v" ] && find "$dir" -name 'rdma_rxe.ko*' | grep -q .; then
      KVER=$(printf '%s\n%s\n' "$KVER" "$v" | sed '/^$/d' | sort -V | tail -n 1)
    fi
  done
fi
[ -n "$KVER" ] || die "no kernel with rdma_rxe.ko and /boot/vmlinuz-* found (run interop/install-deps.sh)"
BZIMAGE=/boot/vmlinuz-$KVER
[ -r "$BZIMAGE" ] || die "$BZIMAGE is missing or unreadable"
for tool in busybox ldd modprobe depmod cpio ibv_rc_pingpong ib_write_bw rdma; do
  command -v "$tool" >/dev/null || die "'$tool' not found (run interop/install-deps.sh)"
done

# ---------------------------------------------------------------- cache check
STAMP="$KVER $(sha256sum "$0" | cut -d' ' -f1)"
if [ "$FORCE" = 0 ] && [ -s "$IMAGE" ] && [ -f "$ENVFILE" ] && grep -qxF "STAMP='$STAMP'" "$ENVFILE"; then
  # shellcheck disable=SC1090
  KERNEL=$(. "$ENVFILE"; echo "$KERNEL")
  if [ -s "$KERNEL" ]; then
    echo "build-initramfs: up to date: $IMAGE, $KERNEL (kernel $KVER)"
    exit 0
  fi
fi

T0=$(date +%s.%N)
STAGE=$(mktemp -d "${TMPDIR:-/tmp}/rocelab-initramfs.XXXXXX")
trap 'rm -rf "$STAGE" "$STAGE.vmlinux"' EXIT
echo "build-initramfs: kernel $KVER, staging in $STAGE"

# Debian 12 has a merged /usr: keep the same layout so that library paths match the host's.
mkdir -p "$STAGE"/usr/bin "$STAGE"/usr/sbin "$STAGE"/usr/lib64 "$STAGE"/usr/lib/x86_64-linux-gnu \
         "$STAGE"/dev "$STAGE"/proc "$STAGE"/sys "$STAGE"/run "$STAGE"/tmp "$STAGE"/host \
         "$STAGE"/etc "$STAGE"/root "$STAGE"/var
for d in bin sbin lib lib64; do ln -s "usr/$d" "$STAGE/$d"; done

# copy_file SRC: put SRC (symlinks followed) at its canonical path inside the image
copy_file() {
  local src=$1 dst
  dst=$STAGE$(realpath "$(dirname "$src")")/$(basename "$src")
  [ -e "$dst" ] && return 0
  mkdir -p "$(dirname "$dst")"
  cp -L "$src" "$dst"
}
# copy_programs FILE...: the files plus every shared object the dynamic loader maps for them
copy_programs() {
  local f
  for f in "$@" $(ldd "$@" 2>/dev/null | grep -oE '^[[:space:]]+(/|[^ ]+ => /)[^ ]+' | grep -oE '/[^ ]+' | sort -u); do
    copy_file "$f"
  done
}

# ---------------------------------------------------------------- userland: busybox
cp "$(command -v busybox)" "$STAGE/usr/bin/busybox"
for applet in $("$STAGE/usr/bin/busybox" --list); do
  [ -e "$STAGE/usr/bin/$applet" ] || ln -s busybox "$STAGE/usr/bin/$applet"
done

# ---------------------------------------------------------------- userland: RDMA tools
TOOLS="ibv_devices ibv_devinfo ibv_rc_pingpong ibv_uc_pingpong ibv_ud_pingpong ibv_srq_pingpong
       ib_write_bw ib_write_lat ib_read_bw ib_read_lat ib_send_bw ib_send_lat ib_atomic_bw ib_atomic_lat
       rping ucmatose udaddy rdma_server rdma_client rdma ip"
FOUND=""
for t in $TOOLS; do
  p=$(command -v "$t" || true)
  if [ -z "$p" ]; then echo "build-initramfs: warning: $t is not installed, left out" >&2; continue; fi
  # the real program replaces any busybox applet of the same name (ip)
  rm -f "$STAGE/usr/bin/$t" "$STAGE/usr/sbin/$t"
  FOUND="$FOUND $p"
done
# shellcheck disable=SC2086
copy_programs $FOUND
# libibverbs finds its providers through /etc/libibverbs.d and dlopen(); ldd cannot see them
copy_programs /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
mkdir -p "$STAGE/etc/libibverbs.d"
cp /etc/libibverbs.d/rxe.driver "$STAGE/etc/libibverbs.d/"
# glibc loads libgcc_s at run time for thread cancellation (rping's threads)
copy_file /usr/lib/x86_64-linux-gnu/libgcc_s.so.1
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$STAGE/etc/passwd"
printf 'root:x:0:\n' > "$STAGE/etc/group"
printf '127.0.0.1\tlocalhost\n::1\tlocalhost\n' > "$STAGE/etc/hosts"
printf 'hosts: files\n' > "$STAGE/etc/nsswitch.conf"

# ---------------------------------------------------------------- kernel modules
# rdma_rxe (with udp_tunnel, ib_core, ...), the verbs and rdma_cm user interfaces, crc32 for the
# ICRC, virtio for the NIC and the 9p host share. modprobe resolves the dependencies.
MODULES="virtio_pci virtio_net 9pnet_virtio 9p crc32_generic rdma_rxe ib_uverbs rdma_ucm ib_umad"
for m in $MODULES; do
  modprobe -S "$KVER" --show-depends "$m" || die "module $m not found for kernel $KVER"
done | awk '$1 == "insmod" { print $2 }' | sort -u | while read -r ko; do
  mkdir -p "$STAGE$(dirname "$ko")"
  cp "$ko" "$STAGE$ko"
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
  [ -f "/lib/modules/$KVER/$f" ] && cp "/lib/modules/$KVER/$f" "$STAGE/lib/modules/$KVER/"
done
depmod -b "$STAGE" "$KVER"
echo "$MODULES" > "$STAGE/etc/rocelab-modules"

# ---------------------------------------------------------------- helper: gid-index
cat > "$STAGE/usr/bin/gid-index" <<'EOF'
#!/bin/sh
# gid-index 4|6 [DEV]: prints the GID table index of DEV's (default rxe0) port-1 GID for its
# IPv4 address (::ffff:a.b.c.d) or for its first global IPv6 address; exit 1 if there is none.
want=${1:?usage: gid-index 4|6 [dev]}
dir=/sys/class/infiniband/${2:-rxe0}/ports/1/gids
i=0
# the table has hundreds of entries: read them with the shell's own 'read' (no process per entry)
while [ -e "$dir/$i" ]; do
  g=""; read -r g < "$dir/$i" 2>/dev/null
  case "$want:$g" in
    4:0000:0000:0000:0000:0000:ffff:*) echo "$i"; exit 0 ;;
    6:0000:0000:0000:0000:0000:ffff:*|6:fe80:*|6:0000:0000:0000:0000:0000:0000:0000:0000|6:) ;;
    6:*) echo "$i"; exit 0 ;;
  esac
  i=$((i+1))
done
exit 1
EOF
chmod 755 "$STAGE/usr/bin/gid-index"

# ---------------------------------------------------------------- helper: client-retry
cat > "$STAGE/usr/bin/client-retry" <<'EOF'
#!/bin/sh
# client-retry SECONDS CMD [ARG...]: runs a client tool (ibv_rc_pingpong SERVER, ib_write_bw SERVER,
# ...) again and again while it fails only because its server does not listen yet, for at most
# SECONDS. Any other failure, or success, ends it with the tool's exit code and output. (perftest's
# rdma_cm client may even crash after a reject; that, too, is retried.)
limit=$1; shift
start=$(cut -d. -f1 /proc/uptime)
log=/tmp/client-retry.$$
attempt=1
while :; do
  "$@" > "$log" 2>&1; rc=$?
  # TCP refused (pingpong, perftest), or rdma_cm's connect rejected because nobody listens (-R)
  if [ $rc -ne 0 ] && grep -q -e "Couldn't connect to .*:[0-9]" -e "Unable to init the socket connection" \
       -e "RDMA_CM_EVENT_REJECTED" -e "Unexpected CM event" "$log" &&
     [ $(( $(cut -d. -f1 /proc/uptime) - start )) -lt "$limit" ]; then
    attempt=$((attempt + 1)); sleep 0.5; continue
  fi
  [ $attempt -gt 1 ] && echo "client-retry: connected at attempt $attempt"
  cat "$log"; rm -f "$log"
  exit $rc
done
EOF
chmod 755 "$STAGE/usr/bin/client-retry"

# ---------------------------------------------------------------- helper: wait-listen
cat > "$STAGE/usr/bin/wait-listen" <<'EOF'
#!/bin/sh
# wait-listen PORT SECONDS: waits until a TCP socket listens on PORT (IPv4 or IPv6), for at most
# SECONDS; exit 0 when it does, 1 at the limit. Lets a script tell the host "the server is ready"
# (a file in /host) before a client on the host connects through qemu's hostfwd, which accepts the
# host's connection whether or not anything in the VM listens yet.
hex=$(printf ':%04X' "$1")
limit=$(( $(cut -d. -f1 /proc/uptime) + $2 ))
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$limit" ]; do
  # field 2 is the local address (hex IP:PORT), field 4 the state; 0A is LISTEN
  if cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
     awk -v p="$hex" 'substr($2, length($2) - 4) == p && $4 == "0A" { f = 1 } END { exit !f }'; then
    exit 0
  fi
  sleep 0.1
done
exit 1
EOF
chmod 755 "$STAGE/usr/bin/wait-listen"

# ---------------------------------------------------------------- /init
cat > "$STAGE/init" <<'EOF'
#!/bin/sh
# rocelab interop VM. Kernel command line parameters:
#   rocelab.ip=A.B.C.D/N  rocelab.ip6=X::Y/N  rocelab.mac=52:54:...  rocelab.name=HOST
#   rocelab.cmd=BASE64    the command (else /host/cmd.sh from the 9p share "host")
#   rocelab.shell=1       an interactive shell on the console instead of a command
# Console lines starting with "ROCELAB-VM:" mark the stages; cmd.out / cmd.rc go to /host.
export PATH=/usr/bin:/usr/sbin
mount -t proc none /proc
mount -t sysfs none /sys
mount -t devtmpfs none /dev
mkdir -p /dev/pts && mount -t devpts none /dev/pts
mount -t tmpfs none /tmp
up() { cut -d' ' -f1 /proc/uptime; }
say() { echo "ROCELAB-VM: $* (uptime $(up) s)"; }
param() {
  for w in $(cat /proc/cmdline); do
    case "$w" in "rocelab.$1="*) echo "${w#*=}"; return 0 ;; esac
  done
  return 1
}
say "init"
hostname "$(param name || echo rxe-vm)"
for m in $(cat /etc/rocelab-modules); do modprobe "$m" || say "modprobe $m FAILED"; done
OUT=/tmp
if mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 host /host 2>/dev/null; then OUT=/host; fi
say "modules loaded, output to $OUT"

/usr/sbin/ip link set lo up
MAC=$(param mac) && /usr/sbin/ip link set eth0 address "$MAC"
/usr/sbin/ip link set eth0 up
IP=$(param ip) && /usr/sbin/ip addr add "$IP" dev eth0
IP6=$(param ip6) && /usr/sbin/ip -6 addr add "$IP6" dev eth0 nodad
# the optional second NIC (boot-vm.sh --oob): qemu user networking, only for the tools' TCP
# exchange with the host (10.0.2.2); rxe is never bound to it
if OOB=$(param oob) && [ -e /sys/class/net/eth1 ]; then
  /usr/sbin/ip link set eth1 up
  /usr/sbin/ip addr add "$OOB" dev eth1
fi
n=0; while [ "$(cat /sys/class/net/eth0/operstate)" != up ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done

say "eth0 $(cat /sys/class/net/eth0/operstate)"
rdma link add rxe0 type rxe netdev eth0 || say "rdma link add FAILED"
n=0; while ! grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null && [ $n -lt 100 ]; do
  sleep 0.1; n=$((n+1)); done
say "rxe0 port $(cat /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null)"
if [ -n "$IP6" ]; then n=0; while ! gid-index 6 >/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n+1)); done; fi
say "ready: rxe0 gid-index 4 = $(gid-index 4), gid-index 6 = $(gid-index 6)"

if param shell >/dev/null; then
  say "shell (poweroff -f to leave)"
  setsid cttyhack sh -l
else
  if CMD64=$(param cmd); then echo "$CMD64" | base64 -d > /tmp/cmd.sh; CMD=/tmp/cmd.sh
  elif [ -f /host/cmd.sh ]; then CMD=/host/cmd.sh
  else CMD=""; fi
  if [ -n "$CMD" ]; then
    say "running"
    cd "$OUT"
    sh "$CMD" > "$OUT/cmd.out" 2>&1
    rc=$?
    echo "$rc" > "$OUT/cmd.rc"
    sync
    say "command exit $rc"
    tail -n 40 "$OUT/cmd.out"
  else
    say "no command (give rocelab.cmd= or /host/cmd.sh)"
  fi
fi
say "poweroff"
poweroff -f
EOF
chmod 755 "$STAGE/init"

# ---------------------------------------------------------------- kernel for a PVH boot
# The bzImage is a small decompressor plus the XZ-packed ELF kernel. Debian builds with
# CONFIG_PVH, so qemu can start the ELF directly (no real-mode setup, no decompression).
# Anything unexpected falls back to booting the bzImage as it is.
KERNEL=$BZIMAGE
extract_vmlinux() {
  local magic off tool
  for magic in '\xfd7zXZ\x00:xz' '\x1f\x8b\x08:gzip' '\x28\xb5\x2f\xfd:zstd'; do
    tool=${magic##*:}
    command -v "$tool" >/dev/null || continue
    for off in $(LC_ALL=C grep -aboP "${magic%:*}" "$BZIMAGE" | cut -d: -f1); do
      # the stream is followed by other data, so the tool complains; the ELF magic decides
      tail -c +$((off + 1)) "$BZIMAGE" | "$tool" -dc 2>/dev/null > "$STAGE.vmlinux" || true
      if [ "$(head -c 4 "$STAGE.vmlinux" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] &&
         LC_ALL=C grep -qaP '\x04\x00\x00\x00[\x04\x08]\x00\x00\x00\x12\x00\x00\x00Xen\x00' "$STAGE.vmlinux"; then
        return 0
      fi
    done
  done
  return 1
}
if extract_vmlinux; then
  mv -f "$STAGE.vmlinux" "$WORK/vmlinux"
  KERNEL=$WORK/vmlinux
else
  echo "build-initramfs: could not extract an ELF kernel from $BZIMAGE; booting the bzImage (slower)" >&2
  rm -f "$WORK/vmlinux"
fi
rm -f "$STAGE.vmlinux"

# ---------------------------------------------------------------- pack
(cd "$STAGE" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$IMAGE.tmp.$$"
mv -f "$IMAGE.tmp.$$" "$IMAGE"
{
  echo "KVER='$KVER'"
  echo "KERNEL='$KERNEL'"
  echo "STAMP='$STAMP'"
} > "$ENVFILE.tmp.$$"
mv -f "$ENVFILE.tmp.$$" "$ENVFILE"
echo "build-initramfs: built $IMAGE ($(du -k "$IMAGE" | cut -f1) KiB) and $KERNEL for kernel $KVER" \
     "in $(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
