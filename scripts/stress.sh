#!/usr/bin/env bash
# Runs each of make test's passes (STRESS_PASSES: plain, tsan, asan by default) N times in a
# row while two busy loops, a separate process, keep both cores loaded. A test that passes
# only on an idle machine fails here, and a hang fails within its pass's watchdog limit. Each
# run's log is .build/stress-PASS-I.log; a summary line per run and per pass.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
passes=${STRESS_PASSES:-plain tsan asan}
# The sanitizer builds first, outside the timed runs (make test builds them the same way).
for pass in $passes; do
  case "$pass" in
    tsan) swift build --build-tests --sanitize=thread --scratch-path .build/tsan >/dev/null ;;
    asan)
      swift build --build-tests --sanitize=address --scratch-path .build/asan \
        -Xswiftc -use-ld=lld >/dev/null
      ;;
  esac
done
burners=()
for _ in 1 2; do
  (while :; do :; done) &
  burners+=($!)
done
trap 'kill "${burners[@]}" 2>/dev/null || true' EXIT
failed=0
for pass in $passes; do
  times=()
  passed=0
  for i in $(seq 1 "$runs"); do
    log=".build/stress-$pass-$i.log"
    start=$(date +%s)
    if make --no-print-directory "$pass" >"$log" 2>&1; then
      took=$(($(date +%s) - start))
      times+=("$took")
      passed=$((passed + 1))
      echo "$pass run $i of $runs passed in $took s:" \
        "$(grep -E 'Test run with' "$log" | tail -1)"
    else
      failed=$((failed + 1))
      echo "$pass run $i of $runs FAILED after $(($(date +%s) - start)) s (log: $log):"
      grep -E '✘ Test .*recorded an issue|watchdog:' "$log" | head -5 || true
    fi
  done
  sorted=$(printf '%s\n' "${times[@]:-0}" | sort -n)
  median=$(sed -n "$(((${#times[@]} + 1) / 2))p" <<<"$sorted")
  echo "$pass: $passed of $runs passed under load; median ${median:-?} s, slowest $(tail -1 <<<"$sorted") s"
done
((failed == 0))
