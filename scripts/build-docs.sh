#!/usr/bin/env bash
# Builds the DocC catalog of every library product with the toolchain's `docc`, failing on
# any warning. (swift-docc-plugin is an outside package and cannot be fetched here.)
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .build/symbol-graphs .build/docs
out=$(swift package dump-symbol-graph --minimum-access-level public 2>&1 | tail -n 1)
dir=${out#Files written to }
[[ -d "$dir" ]] || { echo "error: dump-symbol-graph failed: $out" >&2; exit 1; }
mkdir -p .build/docs
modules=(
  PhotoTimer PhotoTimerTesting PhotoTimerLocation PhotoTimerGPSD PhotoTimerPOSIX PhotoTimerImaging
  PhotoTimerJPEG PhotoTimerTerminal PhotoTimerFFmpeg PhotoTimerGPhoto2 PhotoTimerGStreamer
  PhotoTimerRemote PhotoTimerFaces
)
for module in "${modules[@]}"; do
  graphs=.build/symbol-graphs/$module
  mkdir -p "$graphs"
  cp "$dir/$module.symbols.json" "$graphs"/
  cp "$dir/$module"@*.symbols.json "$graphs"/ 2>/dev/null || true
  docc convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.phototimer.$module" \
    --output-path ".build/docs/$module" \
    --warnings-as-errors >/tmp/docc-$module.log 2>&1 || { cat /tmp/docc-$module.log >&2; exit 1; }
done
echo "docs: ${#modules[@]} catalogs in .build/docs (no warnings)"
