#!/bin/bash
# Installs (as root, non-interactively) the Debian 12 packages the interop harness uses:
#   qemu-system-x86    qemu-system-x86_64 with TCG (no KVM needed)
#   linux-image-amd64  Debian's kernel (6.1) and its modules, among them rdma_rxe.ko
#   busybox-static     the shell and userland inside the VM
#   ibverbs-providers  librxe (the user-space half of Soft-RoCE)
#   ibverbs-utils      ibv_devinfo, ibv_rc_pingpong, ibv_uc_pingpong, ibv_ud_pingpong, ...
#   perftest           ib_write_bw, ib_read_bw, ib_send_bw, ib_*_lat, ...
#   rdmacm-utils       rping, ucmatose, ... (rdma_cm tests)
#   iproute2           `rdma link add` and a full `ip` for the VM
#   kmod cpio xz-utils to resolve module dependencies, pack the initramfs and unpack the kernel
# Safe to run again: apt-get only installs what is missing.
set -euo pipefail
PKGS="qemu-system-x86 linux-image-amd64 busybox-static ibverbs-providers ibverbs-utils perftest
      rdmacm-utils iproute2 kmod cpio xz-utils"
if [ "$(id -u)" != 0 ]; then
  echo "install-deps.sh: must run as root (apt-get install $PKGS)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# The harness boots the kernel with its own initramfs: INITRD=No tells the kernel package's hook
# not to spend minutes building a host initrd nobody uses.
export INITRD=No
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $PKGS
echo "install-deps.sh: installed: $PKGS" | tr -s ' \n' ' '; echo
