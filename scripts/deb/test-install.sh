#!/usr/bin/env bash
# Installs .build/deb's package on a Debian 12 that has never seen it: a minimal root made by
# mmdebstrap (its tarball cached as .build/deb/debian12-base.tar, the packages apt fetches in
# .build/deb/apt-archives), no Swift toolchain in it. Inside (scripts/deb/inside.sh): apt-get
# install ./phototimer_….deb, --version, doctor, a photo from the scene camera and one from an
# image file, phototimer-gtk under Xvfb for a screenshot, then apt-get purge leaves no file of
# ours. Here: the photos' EXIF read back, the screenshot looked at. Needs root (chroot, mounts):
# CI runs as root; elsewhere it asks sudo.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ $(id -u) -ne 0 ]]; then exec sudo --preserve-env=PATH "$0" "$@"; fi
out=.build/deb
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/PhotoTimer/PhotoTimerVersion.swift)
deb=$out/phototimer_${version}_$(dpkg --print-architecture).deb
[[ -f $deb ]] || { echo "error: no $deb; run make deb" >&2; exit 1; }
base=$out/debian12-base.tar
cache=$out/apt-archives
root=$out/clean-root
start=$(date +%s)
if [[ ! -s $base ]]; then
  echo "== mmdebstrap: a minimal Debian 12 (once; cached as $base)"
  mmdebstrap --quiet --variant=apt --format=tar bookworm "$base.part" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  mv "$base.part" "$base"
fi
# NB: the root's mounts live in the namespace below and end with it; should one ever show in
# this one, the root is left alone rather than removed through it.
remove_root() {
  if grep -q " $(realpath -m "$root")/" /proc/mounts; then
    echo "warning: $root still has mounts; not removed" >&2
  else
    rm -rf "$root"
  fi
}
remove_root
mkdir -p "$root" "$cache/partial"
trap remove_root EXIT
tar -C "$root" -xf "$base"
mkdir -p "$root/dev" "$root/proc" "$root/sys" "$root/tmp"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" Tests/PhotoTimerFacesTests/Fixtures/astronaut.jpg scripts/deb/inside.sh "$root/tmp/"
# A mount and PID namespace of its own: its mounts and every process it starts (Xvfb, the
# window) end with it, whatever happens.
unshare --mount --pid --fork --kill-child bash -euc '
  root=$1
  mount --make-rprivate /
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  mount -t sysfs -o ro sysfs "$root/sys"
  mount --bind "$2" "$root/var/cache/apt/archives"
  exec chroot "$root" /bin/bash /tmp/inside.sh
' _ "$root" "$(realpath "$cache")"
result=$root/tmp/result
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== checked here"
[[ $(cat "$result/version") == "phototimer $version" ]] || fail "--version: $(cat "$result/version")"
[[ $(cat "$result/doctor-status") == 0 ]] || fail "doctor exited $(cat "$result/doctor-status")"
grep -q 'ready to take photos' "$result/doctor" || fail "doctor is not ready"
for photo in scene file; do
  jpg=$result/$photo.jpg
  grep -q '"event":"captured"' "$result/$photo.json" || fail "no captured event for $photo"
  software=$(exiftool -s3 -Software "$jpg")
  [[ $software == "phototimer $version" ]] || fail "$photo photo's Software is '$software'"
  echo "$photo photo: $(exiftool -s3 -ImageSize "$jpg"), Software $software," \
    "Model $(exiftool -s3 -Model "$jpg")"
done
[[ $(exiftool -s3 -Make "$result/scene.jpg") == phototimer ]] || fail "the scene photo's Make"
[[ $(cat "$result/window-status") == 143 ]] || fail "phototimer-gtk exited $(cat "$result/window-status") on SIGTERM"
# The screenshot is the window with the golden-hour scene in it: many colours, not a blank.
colours=$(ffmpeg -loglevel error -i "$result/window.png" -vf scale=256:192 -f rawvideo \
  -pix_fmt rgb24 - | od -An -v -tx1 -w3 | sort -u | wc -l)
((colours > 500)) || fail "the window's screenshot has $colours colours: blank?"
cp "$result/window.png" "$out/clean-install-window.png"
echo "window: $colours colours in the screenshot ($out/clean-install-window.png)"
echo "packages apt installed with it: $(wc -l <"$result/installed-packages")"
echo "installed, ran and purged on a clean Debian 12 in $(($(date +%s) - start)) s"
