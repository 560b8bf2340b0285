#!/usr/bin/env bash
# scripts/fuzz.sh SECONDS [TARGET…]: builds phototimer-fuzz under libFuzzer and
# AddressSanitizer, then for each target (all by default) replays its checked-in corpus
# (Fuzz/corpus/TARGET: every input found once stays a regression test) and fuzzes it for
# SECONDS with its dictionary. New inputs go to .build/fuzz-work/TARGET, crashes and hangs to
# .build/fuzz-crashes/ (add a fixed one to Fuzz/corpus/TARGET). Exits non-zero on a finding.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-60}
shift || true
scratch=.build/fuzz
# NB: -sanitize-coverage: without it swiftc instruments almost nothing (one counter), and
# libFuzzer mutates blind; lld: gold warns about an ASan runtime symbol on every link.
swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -DPHOTOTIMER_LIBFUZZER \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table -Xswiftc -use-ld=lld \
  -Xswiftc -warnings-as-errors --product phototimer-fuzz --scratch-path "$scratch"
binary="$scratch/release/phototimer-fuzz"
if (($# > 0)); then
  targets=("$@")
else
  targets=(gpsd fix jpeg image arguments location places ffmpeg mjpeg devices remote)
fi
mkdir -p .build/fuzz-crashes
for target in "${targets[@]}"; do
  work=".build/fuzz-work/$target"
  # NB: binary formats get room for a whole 64 KiB segment; text gets libFuzzer's 4 KiB.
  case $target in
    jpeg | image | mjpeg) length=65536 ;;
    *) length=4096 ;;
  esac
  mkdir -p "$work"
  echo "== $target: corpus replay, then ${seconds} s of fuzzing"
  # NB: ASan's leak check off: Swift's runtime keeps metadata caches for the process's life.
  export ASAN_OPTIONS=detect_leaks=0
  # NB: libFuzzer reports a crash itself; the Swift backtracer reading memory confuses ASan.
  export SWIFT_BACKTRACE=enable=no
  PHOTOTIMER_FUZZ_TARGET=$target "$binary" -runs=0 "Fuzz/corpus/$target" 2>&1 | tail -1
  PHOTOTIMER_FUZZ_TARGET=$target "$binary" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=4096 -max_len=$length -dict="Fuzz/dict/$target.dict" \
    -artifact_prefix=".build/fuzz-crashes/$target-" -print_final_stats=1 \
    "$work" "Fuzz/corpus/$target" 2>&1 | grep -E "^stat::number_of_executed_units|^stat::peak_rss|ERROR|SUMMARY|Test unit written|==[0-9]+==" || true
  # NB: the pipeline hides libFuzzer's status; a finding leaves an artifact.
  if compgen -G ".build/fuzz-crashes/$target-*" >/dev/null; then
    echo "error: $target: the fuzzer found an input that breaks it:" \
      .build/fuzz-crashes/"$target"-* >&2
    exit 1
  fi
done
