#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/packages.txt that are not installed yet,
# then writes the two pkg-config files SwiftPM reads (scripts/pkgconfig.sh), so that a plain
# `swift build` works after it. Uses sudo only when not root; quick when all is in place.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list="$here/packages.txt"

mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$' || true)
missing=()
for package in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
  exec "$here/pkgconfig.sh"
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: missing packages (${missing[*]}) and no apt-get here; install them by hand" >&2
  exit 1
fi
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || {
    echo "error: missing packages (${missing[*]}); run as root or install sudo" >&2
    exit 1
  }
  sudo=(sudo)
fi
echo "Installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
"$here/pkgconfig.sh"
