#!/usr/bin/env bash
# The watchdog's own check: a stand-in test run that starts a test and hangs must fail
# within the limit, with a backtrace, the test's name, and no process of it left behind.
set -euo pipefail
cd "$(dirname "$0")/.."
folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
marker="phototimer-watchdog-$$"
cat >"$folder/tests.sh" <<STAND_IN
#!/bin/bash
echo '◇ Test "A test made to hang on purpose" started.'
echo '◇ Test finishes() started.'
echo '✔ Test finishes() passed after 0.001 seconds.'
exec -a $marker sleep 300
STAND_IN
chmod +x "$folder/tests.sh"
start=$(date +%s)
status=0
scripts/watchdog.py 3 -- "$folder/tests.sh" >"$folder/log" 2>&1 || status=$?
took=$(($(date +%s) - start))
fail() {
  cat "$folder/log" >&2
  echo "test-watchdog: $1" >&2
  exit 1
}
((status == 124)) || fail "exit status $status, not 124"
((took < 60)) || fail "took $took s for a 3 s limit"
grep -q 'Thread 1 .*"sleep"' "$folder/log" || fail "no backtrace of the hanging process"
grep -q 'clock_nanosleep' "$folder/log" || fail "the backtrace does not show where it waits"
grep -q -- "--- ls -l /proc/" "$folder/log" || fail "no descriptor list"
grep -A2 'started and never finished' "$folder/log" | grep -q 'A test made to hang on purpose' \
  || fail "the hanging test is not named"
grep -A3 'started and never finished' "$folder/log" | grep -q 'finishes()' \
  && fail "a finished test is named as hanging"
if grep -qs "$marker" /proc/[0-9]*/cmdline; then fail "the hanging process is still there"; fi
# A test process that dies (a crash) while a process it started holds its output open (an
# X server, a window, the crash backtracer): the command reading that output (swift test)
# would wait until the limit. The run ends after the grace, with the holder named and stopped.
orphan="phototimer-orphan-$$"
cp "$(command -v sleep)" "$folder/stand-in.xctest"
cat >"$folder/crash.sh" <<STAND_IN
#!/bin/bash
( "$folder/stand-in.xctest" 6; exec -a $orphan sleep 300 & ) | cat
exit 7
STAND_IN
chmod +x "$folder/crash.sh"
start=$(date +%s)
status=0
WATCHDOG_ORPHAN_GRACE=3 scripts/watchdog.py 120 -- "$folder/crash.sh" >"$folder/log" 2>&1 \
  || status=$?
crashed=$(($(date +%s) - start))
((status == 7)) || fail "a crashed run's status $status, not 7"
((crashed < 30)) || fail "a crashed run held open ended after $crashed s, not within the grace"
grep -q "still held open" "$folder/log" || fail "the held output is not said"
grep -q "$orphan" "$folder/log" || fail "what held it is not named"
if grep -qs "$orphan" /proc/[0-9]*/cmdline; then fail "what held it is still running"; fi
# A run that ends in time passes its status through.
scripts/watchdog.py 30 -- sh -c 'echo fine; exit 3' >"$folder/log" 2>&1 || status=$?
((status == 3)) || fail "a finished run's status $status, not 3"
echo "test-watchdog: a hang fails in ${took} s with its backtrace and the test's name;" \
  "a crashed test whose output a leftover held open ends in ${crashed} s, the leftover stopped"
