#!/usr/bin/env bash
# The README's and docs/' make targets, run the way a person runs them, so a flag a tool does not
# take fails `make test` where it is written (issue 49: `swift run` refused --static-swift-stdlib
# and `make run` was broken while every test passed).
#
#   scripts/check-make-targets.sh run run-gtk install bench    # after the release builds
#   scripts/check-make-targets.sh stress                       # after the sanitizer builds
#
# run      `make run` takes one photo: a 1 s count on the scene camera into a temporary folder,
#          stdin and stdout not a terminal (the plain output); exit 0, one JPEG, EXIF read back.
# run-gtk  `make run-gtk` on an Xvfb of its own until the window's first frame, closed with
#          Ctrl+Q; exit 0.
# install  `make install` into a temporary DESTDIR: every file the reference lists, and the
#          installed program runs.
# bench    `make bench` up to its first real step: one part (--command) of the benchmark.
# soak     `make soak` with a tiny budget: 5 shots and 5 start/cancel cycles.
# stress   `make stress` with a tiny budget: one run of each pass over one small suite.
#          (`make deb` and `make docs` run in full in `make test`; `make fuzz` only through
#          `make fuzz-smoke`'s parsers: its engine part is a release build of the whole test
#          suite in a scratch path of its own, minutes of both cores.)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$scratch"
}
trap cleanup EXIT
fail() {
  echo "check-make-targets: $1" >&2
  exit 1
}
# Waits up to $2 seconds for the command $1 to succeed (checked every 0.2 s).
wait_for() {
  local deadline=$((SECONDS + $2))
  until eval "$1"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

check_run() {
  local photos=$scratch/run-photos log=$scratch/run.log status=0
  echo "== make run (a 1 s count on the scene camera, plain output)"
  mkdir -p "$photos"
  make --no-print-directory run \
    ARGS="--camera scene -s 1 --no-location -o $photos" \
    </dev/null >"$log" 2>&1 || status=$?
  ((status == 0)) || { cat "$log" >&2; fail "make run exited $status"; }
  mapfile -t shots < <(find "$photos" -name '*.jpg')
  ((${#shots[@]} == 1)) || { cat "$log" >&2; fail "make run left ${#shots[@]} photos, not 1"; }
  grep -q "^+[0-9.]*s  Saved " "$log" || { cat "$log" >&2; fail "make run's output does not say Saved"; }
  local software
  software=$(exiftool -s3 -Software "${shots[0]}")
  [[ $software == phototimer* ]] || fail "the photo's EXIF Software is '$software'"
  echo "make run: exit 0, $(basename "${shots[0]}"), Software '$software'"
}

check_run_gtk() {
  local base=$scratch/gtk status=0
  echo "== make run-gtk (under Xvfb, until its first frame, then Ctrl+Q)"
  mkdir -p "$base/photos" "$base/config"
  # NB: -displayfd: Xvfb picks a free display and names it; no TCP listener.
  exec {display_pipe}< <(exec Xvfb -displayfd 1 -screen 0 1280x800x24 -nolisten tcp \
    2>"$base/xvfb.log")
  pids+=($!)
  local display
  read -r -t 30 display <&"$display_pipe" || fail "Xvfb did not start: $(cat "$base/xvfb.log")"
  DISPLAY=:$display HOME=$base XDG_CONFIG_HOME=$base/config \
    PHOTOTIMER_GTK_TRACE=$base/trace.txt \
    make --no-print-directory run-gtk ARGS="--camera scene --no-location -o $base/photos" \
    </dev/null >"$base/log" 2>&1 &
  local make_pid=$!
  pids+=("$make_pid")
  wait_for "grep -q '^first-frame ' '$base/trace.txt' 2>/dev/null || ! kill -0 $make_pid" 600 \
    || { cat "$base/log" >&2; fail "make run-gtk showed no frame within 600 s"; }
  grep -q '^first-frame ' "$base/trace.txt" 2>/dev/null \
    || { cat "$base/log" >&2; fail "make run-gtk ended before its first frame"; }
  # NB: only a mapped window, and again until it takes: at the first frame GTK may still hold a
  # second, unmapped window of that name (a BadWindow once, in make test).
  # The loop ends when a Ctrl+Q is delivered or the window has gone (a first Ctrl+Q that took
  # although xdotool then failed); each try is bounded (--sync waits for ever on a window
  # that went away).
  wait_for "! kill -0 $make_pid 2>/dev/null || DISPLAY=:$display timeout 5 xdotool search \
    --onlyvisible --name '^phototimer$' windowfocus --sync key ctrl+q 2>>'$base/xdotool.log'" 20 \
    || fail "xdotool could not reach the window: $(cat "$base/xdotool.log")"
  wait_for "! kill -0 $make_pid 2>/dev/null" 20 \
    || { cat "$base/log" >&2; fail "the window did not close within 20 s of Ctrl+Q"; }
  wait "$make_pid" || status=$?
  ((status == 0)) || { cat "$base/log" >&2; fail "make run-gtk exited $status after Ctrl+Q"; }
  echo "make run-gtk: first frame shown, closed by Ctrl+Q, exit 0"
}

check_install() {
  local root=$scratch/root prefix=/usr
  echo "== make install (DESTDIR=$root PREFIX=$prefix)"
  make --no-print-directory install DESTDIR="$root" PREFIX="$prefix" >"$scratch/install.log" 2>&1 \
    || { cat "$scratch/install.log" >&2; fail "make install failed"; }
  local file
  for file in bin/phototimer bin/phototimer-gtk share/phototimer/cities15000.tsv \
    share/phototimer/countries.tsv share/applications/org.phototimer.PhotoTimer.desktop \
    share/icons/hicolor/scalable/apps/phototimer.svg \
    share/metainfo/org.phototimer.PhotoTimer.metainfo.xml share/man/man1/phototimer.1 \
    share/man/man1/phototimer-gtk.1 share/bash-completion/completions/phototimer \
    share/bash-completion/completions/phototimer-gtk \
    share/fish/vendor_completions.d/phototimer.fish \
    share/fish/vendor_completions.d/phototimer-gtk.fish; do
    [[ -s $root$prefix/$file ]] || fail "make install did not install $prefix/$file"
  done
  [[ -n $(find "$root$prefix/share/zsh" -name _phototimer -size +0) ]] \
    || fail "make install did not install the zsh completion"
  local version
  version=$("$root$prefix/bin/phototimer" --version)
  [[ $version == "phototimer "* ]] || fail "the installed phototimer says '$version'"
  echo "make install: $(find "$root" -type f | wc -l) files; '$version'"
}

check_bench() {
  echo "== make bench (its first part only: BENCH=--command)"
  make --no-print-directory bench BENCH=--command >"$scratch/bench.log" 2>&1 \
    || { cat "$scratch/bench.log" >&2; fail "make bench BENCH=--command failed"; }
  grep -q 'phototimer --version' "$scratch/bench.log" \
    || { cat "$scratch/bench.log" >&2; fail "make bench printed no --version figure"; }
  echo "make bench: $(grep -c . "$scratch/bench.log") lines"
}

check_soak() {
  echo "== make soak (SOAK_COUNT=5)"
  make --no-print-directory soak SOAK_COUNT=5 >"$scratch/soak.log" 2>&1 \
    || { cat "$scratch/soak.log" >&2; fail "make soak SOAK_COUNT=5 failed"; }
  grep -q '^soak: ffmpeg left at the end *none' "$scratch/soak.log" \
    || { cat "$scratch/soak.log" >&2; fail "make soak left an ffmpeg or printed no figure"; }
  echo "make soak: $(grep -c '^soak:' "$scratch/soak.log") figures"
}

check_stress() {
  echo "== make stress (one run of each pass over one small suite: TESTS=TestClockTests)"
  make --no-print-directory stress STRESS_RUNS=1 TESTS=TestClockTests \
    >"$scratch/stress.log" 2>&1 || { cat "$scratch/stress.log" >&2; fail "make stress failed"; }
  local pass
  for pass in plain tsan asan; do
    grep -q "^$pass: 1 of 1 passed under load" "$scratch/stress.log" \
      || { cat "$scratch/stress.log" >&2; fail "make stress did not pass its $pass run"; }
  done
  echo "make stress: plain, tsan and asan each 1 of 1 over TestClockTests"
}

(($# > 0)) || set -- run run-gtk install bench soak stress
for target in "$@"; do
  case $target in
    run) check_run ;;
    run-gtk) check_run_gtk ;;
    install) check_install ;;
    bench) check_bench ;;
    soak) check_soak ;;
    stress) check_stress ;;
    *) fail "unknown target '$target' (run, run-gtk, install, bench, soak, stress)" ;;
  esac
done
