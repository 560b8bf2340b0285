#!/usr/bin/env bash
# Prepares the tests' VM in .build/vm: Debian 12's own kernel (fetched with `apt-get download`,
# unpacked with dpkg-deb, never installed), its uncompressed vmlinux (boots about twice as fast
# under TCG as the bzImage), and an initramfs of busybox-static, scripts/vm/init and the modules
# for vivid, 9p over virtio and overlayfs. Done once; again only when the kernel changes.
# Prints the folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
vm="$root/.build/vm"
mkdir -p "$vm"
newest() {
  apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' 2>/dev/null |
    awk '{print $1}' | sort -V | tail -1
}
package=$(newest)
if [[ -z "$package" ]]; then
  apt-get update -qq >/dev/null
  package=$(newest)
fi
[[ -n "$package" ]] || { echo "error: no linux-image-6.1.0-*-amd64-unsigned in apt" >&2; exit 1; }
release=${package#linux-image-}
release=${release%-unsigned}
# NB: made again when the kernel, this script or the guest's init change.
inputs=$(cat "$root/scripts/vm/prepare.sh" "$root/scripts/vm/init" | sha256sum | cut -c1-12)
stamp="$vm/ready-$release-$inputs"
if [[ -f "$stamp" && -f "$vm/vmlinux" && -f "$vm/initramfs.cpio.gz" ]]; then
  echo "$vm"
  exit 0
fi
rm -rf "$vm/kernel" "$vm/initramfs" "$vm"/ready-* "$vm"/*.deb
mkdir -p "$vm/kernel" "$vm/initramfs"
(cd "$vm" && apt-get download -qq "$package" 2>/dev/null)
dpkg-deb -x "$vm"/"$package"_*.deb "$vm/kernel"
rm -f "$vm"/*.deb
python3 - "$vm/kernel/boot/vmlinuz-$release" "$vm/vmlinux" <<'PY'
import lzma, sys
data = open(sys.argv[1], "rb").read()
start = data.find(b"\xfd7zXZ\x00")
if start < 0:
    sys.exit("no xz payload in " + sys.argv[1])
decompressor = lzma.LZMADecompressor()
open(sys.argv[2], "wb").write(decompressor.decompress(data[start:]))
PY
modules="$vm/kernel/lib/modules/$release"
depmod -b "$vm/kernel" "$release"
image="$vm/initramfs"
mkdir -p "$image"/{bin,dev,proc,sys,host,rw,newroot,modules}
cp /bin/busybox "$image/bin/busybox"
cp "$root/scripts/vm/init" "$image/init"
chmod 755 "$image/init"
: >"$image/modules/order"
for module in virtio_pci 9pnet_virtio 9p overlay vivid; do
  modprobe -d "$vm/kernel" -S "$release" --show-depends "$module" | awk '$1 == "insmod" {print $2}' |
    while read -r path; do
      name=$(basename "$path")
      grep -qx "$name" "$image/modules/order" && continue
      cp "$path" "$image/modules/$name"
      echo "$name" >>"$image/modules/order"
    done
done
(cd "$image" && find . | cpio -o -H newc --quiet | gzip -1 >"$vm/initramfs.cpio.gz")
rm -rf "$vm/kernel/boot"
touch "$stamp"
echo "$vm"
