#!/usr/bin/env bash
# Prepares the tests' VM in .build/vm: Debian 12's own kernel (fetched with `apt-get download`,
# unpacked with dpkg-deb, never installed), its uncompressed vmlinux (boots about twice as fast
# under TCG as the bzImage), and an initramfs of busybox-static, scripts/vm/init and the modules
# for vivid, v4l2loopback (built here), 9p over virtio and overlayfs. Done once; again only when
# the kernel or these scripts change.
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
# v4l2loopback (an MJPEG-only device, fed by ffmpeg in the guest): Debian's own source
# (v4l2loopback-dkms) built against this kernel's headers, all fetched like the kernel and
# unpacked, never installed (installing the headers would upgrade linux-libc-dev).
headers="$vm/headers"
rm -rf "$headers"
mkdir -p "$headers"
upstream=${release%%-*}
(cd "$headers" && apt-get download -qq "linux-headers-$release" \
  "linux-headers-${release%-amd64}-common" "linux-kbuild-${upstream%.*}" \
  v4l2loopback-dkms 2>/dev/null) || true
for deb in "$headers"/*.deb; do dpkg-deb -x "$deb" "$headers/root"; done
kbuild=$(find "$headers/root/usr/lib" -maxdepth 1 -name 'linux-kbuild-*' | head -1)
tree="$headers/root/usr/src/linux-headers-$release"
source=$(find "$headers/root/usr/src" -maxdepth 1 -name 'v4l2loopback-*' | head -1)
[[ -d "$tree" && -n "$kbuild" && -n "$source" ]] || {
  echo "error: the headers or v4l2loopback's source could not be fetched for $release" >&2
  exit 1
}
# NB: the headers' Makefile includes the common tree by its installed path.
sed -i "s|include /usr/src/|include $headers/root/usr/src/|" "$tree/Makefile"
cp -r "$source" "$headers/v4l2loopback"
make -s -C "$tree" M="$headers/v4l2loopback" modules >"$headers/build.log" 2>&1 || {
  echo "error: v4l2loopback did not build against $release; see $headers/build.log" >&2
  exit 1
}
cp "$headers/v4l2loopback/v4l2loopback.ko" "$image/modules/v4l2loopback.ko"
echo v4l2loopback.ko >>"$image/modules/order"
rm -rf "$headers"
(cd "$image" && find . | cpio -o -H newc --quiet | gzip -1 >"$vm/initramfs.cpio.gz")
rm -rf "$vm/kernel/boot"
touch "$stamp"
echo "$vm"
