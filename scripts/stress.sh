#!/usr/bin/env bash
# Runs the unit suite N times in a row while two busy loops keep both cores loaded.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
burners=()
for _ in 1 2; do
  (while :; do :; done) &
  burners+=($!)
done
trap 'kill "${burners[@]}" 2>/dev/null || true' EXIT
for i in $(seq 1 "$runs"); do
  if ! swift test --skip-build --filter PhotoTimerTests >".build/stress-$i.log" 2>&1; then
    echo "run $i of $runs FAILED (log: .build/stress-$i.log)"
    exit 1
  fi
  echo "run $i of $runs passed: $(grep -E 'Test run with' ".build/stress-$i.log" | tail -1)"
done
