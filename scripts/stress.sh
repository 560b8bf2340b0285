#!/usr/bin/env bash
# Runs the whole suite (gpsd, ffmpeg, gphoto2, pseudo-terminal, tmux and window tests
# included) N times in a row while two busy loops keep both cores loaded. A test that
# passes only on an idle machine fails here. STRESS_FILTER narrows it (a suite's name).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
filter=()
if [[ -n "${STRESS_FILTER:-}" ]]; then filter=(--filter "$STRESS_FILTER"); fi
burners=()
for _ in 1 2; do
  (while :; do :; done) &
  burners+=($!)
done
trap 'kill "${burners[@]}" 2>/dev/null || true' EXIT
failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if swift test --skip-build "${filter[@]}" >".build/stress-$i.log" 2>&1; then
    echo "run $i of $runs passed in $(($(date +%s) - start)) s:" \
      "$(grep -E 'Test run with' ".build/stress-$i.log" | tail -1)"
  else
    failed=$((failed + 1))
    echo "run $i of $runs FAILED (log: .build/stress-$i.log):"
    grep -E '✘ Test .*recorded an issue' ".build/stress-$i.log" | head -5 || true
  fi
done
echo "$((runs - failed)) of $runs runs passed"
((failed == 0))
