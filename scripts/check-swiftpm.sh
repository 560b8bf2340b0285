#!/usr/bin/env bash
# The Swift way works: with the pkg-config files install-packages.sh wrote, a plain
# `swift build --build-tests` (no make, no PKG_CONFIG_PATH) builds with no warning from
# SwiftPM. Run after make's own build: it reuses that build, so it takes a second.
set -euo pipefail
if [[ ! -f /usr/local/lib/pkgconfig/phototimer-gtk.pc ]]; then
  echo "check-swiftpm: skipped (the pkg-config files are in .build/pkgconfig: not root, no sudo)"
  exit 0
fi
output=$(env -u PKG_CONFIG_PATH "${SWIFT:-swift}" build --build-tests -Xswiftc -warnings-as-errors 2>&1) || {
  printf '%s\n' "$output" >&2
  echo "check-swiftpm: a plain swift build failed" >&2
  exit 1
}
if grep -E 'warning:' <<<"$output" >&2; then
  echo "check-swiftpm: a plain swift build warns (above)" >&2
  exit 1
fi
echo "check-swiftpm: a plain swift build works, without warnings"
