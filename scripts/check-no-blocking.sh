#!/usr/bin/env bash
# No test and no library code blocks a thread on a child's output or exit: Foundation's
# Process with a blocking read (readDataToEndOfFile, availableData) or waitUntilExit, on a
# 2-core machine, takes one of the cooperative pool's two threads for as long as the child's
# pipe stays open (a clean clone's `make test` hung 23 minutes on this). Tools are run with
# ChildProcess.run (Sources/PhotoTimerPOSIX/Processes/ChildProcess+Run.swift): off the pool,
# cancellable, with a time limit and the tool's standard error in the failure.
#
# NB: Sources/PhotoTimerBenchmarks is left out: `phototimer-bench` is a program of its own
# (never inside the test runner), whose cold-start figures (cjpeg, a cold ffmpeg, the command
# in a pseudo-terminal) time Foundation's Process from spawn to the last byte on purpose, and
# whose synchronous sections run one at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='readDataToEndOfFile|waitUntilExit|availableData|(^|[^A-Za-z_.])Process\(\)'
hits=$(grep -rnE --include='*.swift' "$pattern" Sources Tests \
  | grep -v '^Sources/PhotoTimerBenchmarks/' \
  | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if [[ -n "$hits" ]]; then
  printf '%s\n' "$hits" >&2
  echo "check-no-blocking: the lines above block a thread on a child (Foundation's Process);" \
    "run the tool with ChildProcess.run instead" >&2
  exit 1
fi
# Nor does a task spin until something happens (`while !ready { await Task.yield() }`): on
# two cores a spinning task outran every other job of the pool, and a clean clone's test
# process stood still for 139 s (d09d1b9). A task waits by parking (a continuation, the
# project's `Waiters`) until what it waits for wakes it.
spins=$(grep -rnE --include='*.swift' 'while .*Task\.yield\(\)' Sources Tests \
  | grep -v '^Sources/PhotoTimerBenchmarks/' \
  | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if [[ -n "$spins" ]]; then
  printf '%s\n' "$spins" >&2
  echo "check-no-blocking: the lines above spin on Task.yield(); park the task until it is woken" >&2
  exit 1
fi
# A polling loop whose sleep is `try?`-ed must end when its task is cancelled: the sleep
# throws at once then, and the loop spins on a pool thread (to its deadline, or for ever).
# Each such loop names `Task.isCancelled` or leaves on the sleep's failure within it.
loops=$(python3 - <<'PY'
import pathlib, re
for root in ("Sources", "Tests"):
    for path in sorted(pathlib.Path(root).rglob("*.swift")):
        if str(path).startswith("Sources/PhotoTimerBenchmarks/"):
            continue
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines):
            if "try? await Task.sleep" not in line or "!= nil else" in line:
                continue
            before = lines[max(0, number - 4):number]
            loop = [text for text in before if re.match(r"\s*while ", text)]
            if loop and not any("Task.isCancelled" in text for text in loop):
                print(f"{path}:{number + 1}:{line.strip()}")
PY
)
if [[ -n "$loops" ]]; then
  printf '%s\n' "$loops" >&2
  echo "check-no-blocking: the loops above go on spinning once their task is cancelled;" \
    "stop them on Task.isCancelled" >&2
  exit 1
fi
# Nor does product code make a system call outside PhotoTimerPOSIX's funnel (read from the
# debug build's objects: make lint builds first).
SWIFT=${SWIFT:-swift} scripts/check-syscalls.py
echo "check-no-blocking: no test or library code blocks a thread on a child's output or spins"
