# The checks against vivid, run inside the tests' VM (scripts/vm/run.sh) by
# Tests/PhotoTimerGStreamerTests/VividTests.swift, which reads what each one leaves in its folder:
# out.json (the --json events), err.txt, rc, and times (start, event of interest, end; seconds).
# PHOTOTIMER is the program to run. The device is vivid's /dev/video0 (webcam input).
# Every run may wait 60 s at zero for the camera: under TCG with both host cores busy (make
# stress) a device's first frames took more than the default 10 s; no check here is about
# that wait.
set -u
bin=${PHOTOTIMER:?}
device=${device:-/dev/video0}
ctl() { v4l2-ctl -d "$device" "$@"; }
now() { date +%s.%N; }
# run NAME ARGS…: one photo run in the foreground.
run() {
  name=$1
  shift
  mkdir -p "$name/photos"
  start=$(now)
  "$bin" --no-location --filter none --camera "v4l2:$device" --camera-wait 60 --json \
    -o "$name/photos" "$@" >"$name/out.json" 2>"$name/err.txt"
  echo $? >"$name/rc"
  echo "$start $(now)" >"$name/times"
}
# during NAME ACTION ARGS…: a run with a long count; once its camera is ready, ACTION runs;
# the times are the start, the action and the run's end.
during() {
  name=$1
  action=$2
  shift 2
  mkdir -p "$name/photos"
  start=$(now)
  "$bin" --no-location --filter none --camera "v4l2:$device" --camera-wait 60 --json \
    -o "$name/photos" "$@" >"$name/out.json" 2>"$name/err.txt" &
  pid=$!
  for _ in $(seq 1 600); do
    grep -q '"step":"camera"' "$name/out.json" 2>/dev/null && break
    sleep 0.1
  done
  acted=$(now)
  eval "$action"
  wait "$pid"
  echo $? >"$name/rc"
  echo "$start $acted $(now)" >"$name/times"
}

mkdir -p doctor
"$bin" doctor --no-location >doctor/out.txt 2>&1
echo $? >doctor/rc

run best -s 1
run hd -s 1 --resolution 1280x720
run missing-size -s 1 --resolution 1000x1000
ctl -c brightness=20
run dark -s 1
ctl -c brightness=235
run bright -s 1
ctl -c brightness=128

# Busy: another program streams from the device.
# NB: v4l2-ctl itself in the background (not the ctl function: its subshell would be the pid).
v4l2-ctl -d "$device" --stream-mmap --stream-count=100000 >/dev/null 2>&1 &
holder=$!
sleep 1
run busy -s 1
kill "$holder"
wait "$holder" 2>/dev/null

# Cancelled mid-count: the device is free at once (another program streams right after).
during cancelled 'kill -INT $pid' -s 30
mkdir -p after-cancel
ctl --stream-mmap --stream-count=3 >after-cancel/out.txt 2>&1
echo $? >after-cancel/rc

# A buffer flagged as an error during the count: skipped, the photo is taken.
during flagged 'ctl -c inject_v4l2_buf_flag_error=1' -s 3
# A fatal streaming error mid-count: the run ends then, not at zero.
during fatal 'ctl -c inject_fatal_streaming_error=1' -s 30
# An MJPEG-only device: v4l2loopback fed by ffmpeg (it lists the writer's one format, size
# and rate, and captures only once the writer runs).
ffmpeg -loglevel error -re -f lavfi -i testsrc2=size=640x480:rate=30 -c:v mjpeg -q:v 5 \
  -f v4l2 /dev/video1 >/dev/null 2>&1 &
writer=$!
for _ in $(seq 1 300); do
  v4l2-ctl -d /dev/video1 --list-formats 2>/dev/null | grep -q MJPG && break
  sleep 0.1
done
mkdir -p mjpeg
"$bin" doctor --no-location >mjpeg/doctor.txt 2>&1
device=/dev/video1
run mjpeg -s 1
device=/dev/video0
kill "$writer"
wait "$writer" 2>/dev/null

# A booth session holds the camera's automatic gain (vivid's gain_automatic/gain pair) from
# its first shot and gives it back: at its end, on SIGINT, on SIGTERM; after SIGKILL the next
# program to open the camera gives it back. Each folder: held.txt (the controls while held),
# after.txt (once the process ended), next.txt (after the next open, for the kill).
# booth NAME ACTION: a two-shot session; once held, its controls read and ACTION run.
booth() {
  name=$1
  action=$2
  mkdir -p "$name/photos"
  ctl -c gain_automatic=1
  "$bin" booth --no-location --no-people --filter none --camera "v4l2:$device" \
    --camera-wait 60 --json --shots 2 --review 0 --between 8 -s 1 -o "$name/photos" \
    >"$name/out.json" 2>"$name/err.txt" &
  pid=$!
  for _ in $(seq 1 1200); do
    grep -q '"state":"held"' "$name/out.json" 2>/dev/null && break
    sleep 0.1
  done
  ctl -C gain_automatic,gain >"$name/held.txt" 2>&1
  sleep 1.5
  ctl -C gain >>"$name/held.txt" 2>&1
  ls /tmp/.local/state/phototimer/held-controls >>"$name/held.txt" 2>&1
  eval "$action"
  wait "$pid"
  echo $? >"$name/rc"
  ctl -C gain_automatic >"$name/after.txt" 2>&1
}
booth booth-held ':'
booth booth-int 'kill -INT $pid'
booth booth-term 'kill -TERM $pid'
booth booth-kill 'kill -KILL $pid'
"$bin" doctor --no-location >booth-kill/doctor.txt 2>&1
mkdir -p booth-kill/next
"$bin" --no-location --no-people --filter none --camera "v4l2:$device" --camera-wait 60 \
  -s 0 -o booth-kill/next >booth-kill/next/out.txt 2>&1
ctl -C gain_automatic >booth-kill/next.txt 2>&1
ls /tmp/.local/state/phototimer/held-controls >>booth-kill/next.txt 2>&1

# Unplugged mid-count (last: the device is gone after it).
during unplugged 'ctl -c disconnect=1' -s 30
