#!/usr/bin/env bash
# Builds the PhotoTimer DocC catalog with the toolchain's `docc`, failing on any warning.
# (swift-docc-plugin is an outside package and cannot be fetched here.)
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build/symbol-graphs
rm -rf "$graphs" .build/docs
mkdir -p "$graphs"
out=$(swift package dump-symbol-graph --minimum-access-level public 2>&1 | tail -n 1)
dir=${out#Files written to }
[[ -d "$dir" ]] || { echo "error: dump-symbol-graph failed: $out" >&2; exit 1; }
cp "$dir"/PhotoTimer.symbols.json "$dir"/PhotoTimer@*.symbols.json "$graphs"/ 2>/dev/null \
  || cp "$dir"/PhotoTimer.symbols.json "$graphs"/
docc convert Sources/PhotoTimer/PhotoTimer.docc \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name PhotoTimer \
  --fallback-bundle-identifier org.phototimer.PhotoTimer \
  --output-path .build/docs \
  --warnings-as-errors >/dev/null
echo "docs: .build/docs (no warnings)"
