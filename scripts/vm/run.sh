#!/usr/bin/env bash
# Boots the tests' VM (scripts/vm/prepare.sh makes it) and runs SCRIPT inside, in a tmpfs
# overlay over this machine's root: a real vivid /dev/video0, this machine's programs.
# OUT is shared read-write: the script runs there, and leaves console.log and status
# (its exit status) there. Exits with the script's status; 124 when the VM ran out of time.
# Usage: scripts/vm/run.sh SCRIPT OUT [SECONDS [NAME=VALUE…]] (the pairs are exported in the guest)
# NB: TCG, not KVM: this machine's KVM (PVM) runs only kernels built for it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=$1
out=$2
limit=${3:-600}
shift $(($# < 3 ? $# : 3))
vm=$("$here/prepare.sh")
mkdir -p "$out"
# NB: GStreamer's plugin registry, made here: scanning every plugin under emulation takes
# seconds at each start in the guest.
[[ -f "$vm/gst-registry.bin" ]] || GST_REGISTRY="$vm/gst-registry.bin" gst-inspect-1.0 >/dev/null 2>&1 || true
{
  echo "export GST_REGISTRY='$vm/gst-registry.bin' GST_REGISTRY_UPDATE=no"
  for pair in "$@"; do printf 'export %q\n' "$pair"; done
  cat "$script"
} >"$out/script.sh"
rm -f "$out/status" "$out/console.log"
# NB: no_timer_check: under emulation on a loaded machine the guest's early check that the
# IO-APIC timer ticks can miss its window, and the kernel panics before the script runs
# ("IO-APIC + timer doesn't work!", found by `make stress`); the timer works, the check is
# what is too slow.
timeout "$limit" qemu-system-x86_64 -M pc -accel tcg,thread=multi -cpu max -m 1536 -smp 2 \
  -display none -monitor none -nic none -no-reboot -serial "file:$out/serial.log" \
  -kernel "$vm/vmlinux" -initrd "$vm/initramfs.cpio.gz" \
  -append "console=ttyS0 quiet panic=-1 rdinit=/init no_timer_check" \
  -fsdev local,id=host,path=/,security_model=none,readonly=on,multidevs=remap \
  -device virtio-9p-pci,fsdev=host,mount_tag=host \
  -fsdev "local,id=out,path=$out,security_model=none,multidevs=remap" \
  -device virtio-9p-pci,fsdev=out,mount_tag=out || {
  status=$?
  echo "error: the VM did not finish (qemu exit $status); its console is in $out/serial.log" >&2
  exit "$status"
}
[[ -f "$out/status" ]] || {
  echo "error: the VM's script left no status; see $out/serial.log" >&2
  exit 1
}
exit "$(cat "$out/status")"
