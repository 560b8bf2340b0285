#!/usr/bin/env python3
"""Runs a test command under a time limit; a hang is a failure with a reason.

    scripts/watchdog.py SECONDS -- swift test …

The command's output passes through unchanged. If the command is still running after
SECONDS, the watchdog prints, for each test process (an `.xctest` bundle; otherwise every
process the command started): every thread's backtrace (`gdb -batch -p PID -ex 'thread
apply all bt'`) and its open descriptors (`ls -l /proc/PID/fd`); then the tests that started
and never finished (from Swift Testing's and XCTest's own lines); then it kills every
process of the run and exits 124. Otherwise it exits with the command's status.

"Every process of the run" is the command's session: a process the tests started and lost
(its parent crashed, so it now belongs to init: an X server, a window, its ffmpeg) keeps the
session, so it is found and stopped too, never left running after the run. When the test
process itself is gone (a crash) and the command still does not end, something holds its
output open: after a grace the watchdog says who, stops them, and the run ends with the
command's status instead of waiting for the limit. Whatever the run left behind when it
ended is named and stopped.
"""

import os
import re
import selectors
import signal
import subprocess
import sys
import time

STARTED = [
    re.compile(r"Test (?P<name>.+?) started\.$"),  # Swift Testing: ◇ Test name() started.
    re.compile(r"Test Case '(?P<name>[^']+)' started"),  # XCTest
]
ENDED = [
    re.compile(r"Test (?P<name>.+?) (?:passed|failed|skipped)"),
    re.compile(r"Test Case '(?P<name>[^']+)' (?:passed|failed|skipped)"),
]


def descendants(root):
    """Every process below `root` (from /proc), children before grandchildren."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop(0)
        for pid, ppid in parents.items():
            if ppid == parent:
                found.append(pid)
                frontier.append(pid)
    return found


def session_members(session):
    """Every process of `session` (from /proc), but the watchdog."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            # NB: not a zombie (killed, not yet reaped: it holds nothing).
            if int(fields[3]) == session and fields[0] != "Z":
                members.append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    return members


def stop_session(session, keep=()):
    """Kills every process of `session` but those in `keep`; returns their command lines."""
    stopped = []
    for pid in session_members(session):
        if pid in keep:
            continue
        stopped.append(f"{pid} {command_line(pid)}")
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return stopped


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def report(root, running, limit):
    out = sys.stdout
    out.write(f"\nwatchdog: no end after {limit} s: the run hangs. What every test process "
              "was doing:\n")
    processes = [root] + descendants(root)
    processes += [pid for pid in session_members(root) if pid not in processes]
    tests = [pid for pid in processes if ".xctest" in command_line(pid)]
    for pid in tests or processes:
        out.write(f"\n=== process {pid}: {command_line(pid)}\n")
        out.flush()
        subprocess.run(["gdb", "-batch", "-p", str(pid), "-ex", "thread apply all bt"],
                       stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                       timeout=120, check=False)
        out.write(f"--- ls -l /proc/{pid}/fd\n")
        out.flush()
        subprocess.run(["ls", "-l", f"/proc/{pid}/fd"], stdout=out, stderr=subprocess.STDOUT,
                       check=False)
    out.write("\n=== processes of the run:\n")
    for pid in processes:
        out.write(f"{pid} {command_line(pid)}\n")
    count = f"{len(running)} test{'' if len(running) == 1 else 's'}"
    out.write(f"\nwatchdog: {count} started and never finished:\n")
    for name in running:
        out.write(f"  {name}\n")
    out.flush()


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.stderr.write("usage: watchdog.py SECONDS -- COMMAND …\n")
        return 2
    limit = float(sys.argv[1])
    # NB: line-buffered (stdbuf, inherited by the test bundle swift test starts): into a pipe
    # the test process's lines sit in its buffer, and a killed run would lose exactly the ones
    # that say which tests started.
    command = ["stdbuf", "-oL", "-eL"] + sys.argv[3:]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
    running = {}  # name → None, in order of start
    deadline = time.monotonic() + limit
    # When the test process was last seen, and whether it ever was.
    tests_seen = None
    orphan_grace = float(os.environ.get("WATCHDOG_ORPHAN_GRACE", "30"))
    next_check = time.monotonic()
    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ)
    pending = b""
    stream = sys.stdout.buffer
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            report(child.pid, list(running), limit)
            stop_session(child.pid)
            child.wait()
            sys.stdout.write("watchdog: killed the run; it failed\n")
            return 124
        ready = selector.select(timeout=min(remaining, 5))
        if time.monotonic() >= next_check:
            next_check = time.monotonic() + 5
            members = session_members(child.pid)
            if any(".xctest" in command_line(pid) for pid in members):
                tests_seen = time.monotonic()
            elif tests_seen is not None and time.monotonic() - tests_seen > orphan_grace:
                # NB: the test process is gone (it crashed) and the command still waits for
                # its output: whatever holds it open is stopped, the command ends.
                held = stop_session(child.pid, keep={child.pid})
                sys.stdout.write(
                    f"\nwatchdog: the test process ended {orphan_grace:g} s ago and its output "
                    "is still held open; stopped what the run left running:\n"
                    + "".join(f"  {line}\n" for line in held))
                sys.stdout.flush()
                tests_seen = None
        if not ready:
            continue
        chunk = os.read(child.stdout.fileno(), 65536)
        if not chunk:
            break
        stream.write(chunk)
        stream.flush()
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for raw in lines:
            line = raw.decode(errors="replace").rstrip()
            for pattern in STARTED:
                match = pattern.search(line)
                if match and match.group("name") != "run":  # "◇ Test run started."
                    running[match.group("name")] = None
            for pattern in ENDED:
                match = pattern.search(line)
                if match:
                    running.pop(match.group("name"), None)
    status = child.wait()
    left = stop_session(child.pid)
    if left:
        sys.stdout.write("watchdog: the run left these running; stopped them:\n"
                         + "".join(f"  {line}\n" for line in left))
    return status


if __name__ == "__main__":
    sys.exit(main())
