#!/bin/bash
# Runs inside the clean Debian 12 root (scripts/deb/test-install.sh): installs the package as a
# user would, runs both programs, then purges it. Results go to /tmp/result for the host to
# check (it has exiftool; this root has only what the package and the test's X server bring).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin
result=/tmp/result
mkdir -p "$result"
step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

step "apt-get update"
apt-get update -qq
# The test's own tools first, so that what the package pulls in is its own doing.
step "the test's X server (xvfb)"
apt-get install -y -qq --no-install-recommends xvfb >/dev/null
step "apt-get install ./$(basename /tmp/phototimer_*.deb) (with its Recommends, as a user would)"
before=$(dpkg-query -W -f='${Package}\n' | sort)
apt-get install -y -qq /tmp/phototimer_*.deb >/tmp/install.log 2>&1 || {
  cat /tmp/install.log
  fail "apt-get install"
}
comm -13 <(echo "$before") <(dpkg-query -W -f='${Package}\n' | sort) >"$result/installed-packages"
echo "$(wc -l <"$result/installed-packages") packages installed with it"
dpkg -L phototimer | sort >"$result/files"

step "no Swift toolchain here, no Swift library linked"
! command -v swift >/dev/null || fail "a swift command is here"
! ls /usr/lib/swift >/dev/null 2>&1 || fail "/usr/lib/swift is here"
for program in phototimer phototimer-gtk; do
  ! ldd "/usr/bin/$program" | grep -i swift || fail "$program links a Swift library"
  ! ldd "/usr/bin/$program" | grep 'not found' || fail "$program misses a library"
done

step "phototimer --version"
phototimer --version | tee "$result/version"

step "phototimer doctor"
set +e
phototimer doctor >"$result/doctor" 2>&1
echo $? >"$result/doctor-status"
set -e
cat "$result/doctor"

step "phototimer -s 1 --camera scene --no-location -o /tmp/p"
phototimer -s 1 --camera scene --no-location -o /tmp/p --json >"$result/scene.json"
cp /tmp/p/*.jpg "$result/scene.jpg"

step "phototimer -s 3 --camera file:/tmp/astronaut.jpg --no-location -o /tmp/p2"
phototimer -s 3 --camera file:/tmp/astronaut.jpg --no-location -o /tmp/p2 --json >"$result/file.json"
cp /tmp/p2/*.jpg "$result/file.jpg"

step "man pages and completions in place"
for path in /usr/share/man/man1/phototimer.1.gz /usr/share/man/man1/phototimer-gtk.1.gz \
  /usr/share/bash-completion/completions/phototimer /usr/share/zsh/vendor-completions/_phototimer \
  /usr/share/fish/vendor_completions.d/phototimer.fish; do
  [[ -e $path ]] || fail "no $path"
done
# NB: bash completion as bash-completion loads it, answered by the installed binary.
reply=$(bash -c 'source /usr/share/bash-completion/completions/phototimer
  COMP_LINE="phototimer --camera-"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(phototimer --camera-)
  COMP_CWORD=1; _phototimer; printf "%s\n" "${COMPREPLY[@]}"')
[[ $reply == --camera-wait ]] || fail "bash completes 'phototimer --camera-' as '$reply'"

step "webcams: GStreamer's V4L2 and PipeWire sources are installed with it"
plugins=$(echo /usr/lib/*-linux-gnu*/gstreamer-1.0)
for plugin in libgstvideo4linux2.so libgstpipewire.so libgstvideoconvertscale.so libgstapp.so; do
  [[ -e $plugins/$plugin ]] || fail "no $plugins/$plugin"
done
! grep -q "is missing" "$result/doctor" || fail "doctor says something is missing"

step "phototimer-gtk under Xvfb"
exec 3>/tmp/display
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp >/tmp/xvfb.log 2>&1 &
exec 3>&-
for _ in $(seq 100); do [[ -s /tmp/display ]] && break; sleep 0.1; done
[[ -s /tmp/display ]] || fail "Xvfb did not start: $(cat /tmp/xvfb.log)"
export DISPLAY=:$(cat /tmp/display)
PHOTOTIMER_GTK_TRACE=/tmp/trace phototimer-gtk --camera scene:golden-hour -s 10 --no-location \
  --no-beep -o /tmp/w >/tmp/window.log 2>&1 &
window=$!
# The window has drawn the camera's picture once its trace says so, and a few frames more.
for _ in $(seq 600); do
  [[ $(grep -c '^frame ' /tmp/trace 2>/dev/null) -ge 10 ]] && break
  kill -0 "$window" 2>/dev/null || fail "phototimer-gtk ended: $(cat /tmp/window.log)"
  sleep 0.1
done
[[ $(grep -c '^frame ' /tmp/trace 2>/dev/null) -ge 10 ]] || fail "no picture in 60 s"
ffmpeg -loglevel error -f x11grab -video_size 1024x768 -i "$DISPLAY" -frames:v 1 \
  "$result/window.png"
kill -TERM "$window"
set +e
wait "$window"
echo $? >"$result/window-status"
set -e

step "apt-get purge phototimer"
apt-get purge -y -qq phototimer >/dev/null
left=()
while read -r path; do
  [[ -e $path || -L $path ]] && [[ ! -d $path || $path == *phototimer* ]] && left+=("$path")
done <"$result/files"
((${#left[@]} == 0)) || fail "left behind: ${left[*]}"
stray=$(find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /root \) \
  -prune -o -name '*phototimer*' -print)
[[ -z $stray ]] || fail "left behind: $stray"
echo "nothing of phototimer is left"
