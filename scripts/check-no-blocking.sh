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
echo "check-no-blocking: no test or library code blocks a thread on a child's output"
