#!/usr/bin/env python3
"""Runs a test command under a time limit; a hang is a failure with a reason.

    scripts/watchdog.py SECONDS -- swift test …

The command's output passes through unchanged. If the command is still running after
SECONDS, the watchdog prints, for each test process (an `.xctest` bundle; otherwise every
process the command started): every thread's backtrace (`gdb -batch -p PID -ex 'thread
apply all bt'`) and its open descriptors (`ls -l /proc/PID/fd`); then the tests that started
and never finished (from Swift Testing's and XCTest's own lines); then it kills the whole
process tree and exits 124. Otherwise it exits with the command's status.
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
    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ)
    pending = b""
    stream = sys.stdout.buffer
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            report(child.pid, list(running), limit)
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            sys.stdout.write("watchdog: killed the run; it failed\n")
            return 124
        if not selector.select(timeout=min(remaining, 5)):
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
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
