#!/usr/bin/python3
"""Every system call of product code goes through PhotoTimerPOSIX's funnel (SystemCall,
FileDescriptor, FileSystem…): there errno is read at once, EINTR retried, the failure named,
and a FaultPlan can make the call fail in a test. A raw call elsewhere has none of that.

The check reads what each product target's compiled objects call (`nm -u` on the debug
build's .o files, one per source file): a function of the C library (any symbol libc.so.6
defines, less the memory and string helpers the compiler itself emits) or of Swift's Glibc
overlay (`Glibc.open`, `errno`) outside PhotoTimerPOSIX is refused, with the file. Names do
not fool it: a method called `read` is a Swift symbol, `read(2)` is not. Run by
scripts/check-no-blocking.sh, after a debug build (make lint builds first).
"""
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
swift = os.environ.get("SWIFT", "swift")
build = os.path.join(root, ".build", "debug")
# Not product code: the funnel itself, the tests' harnesses, and two programs of their own
# that measure and fuzz (the benchmarks time raw calls on purpose).
EXEMPT = {"PhotoTimerPOSIX", "PhotoTimerHarnesses", "PhotoTimerBenchmarks", "PhotoTimerFuzz"}
# What compiled Swift calls by itself (copies, allocation, C strings, stack protection,
# the end of the process).
ALLOWED = {"memcpy", "memmove", "memset", "memcmp", "malloc", "calloc", "realloc", "free",
           "malloc_usable_size", "posix_memalign", "strlen", "strdup", "strcmp",
           "__stack_chk_fail", "exit", "abort"}
LIBC = "/lib/x86_64-linux-gnu/libc.so.6"


def libc_functions():
    done = subprocess.run(["nm", "-D", "--defined-only", LIBC], capture_output=True, text=True, check=True)
    return {line.split()[-1].split("@")[0] for line in done.stdout.splitlines() if line.split()[-2:-1] in (["T"], ["W"], ["i"])}


def main():
    manifest = json.loads(subprocess.run([swift, "package", "dump-package"], cwd=root, check=True,
                                         capture_output=True, text=True).stdout)
    functions = libc_functions()
    problems, checked = [], 0
    for target in manifest["targets"]:
        name = target["name"]
        if target["type"] not in ("regular", "executable") or name in EXEMPT:
            continue
        # NB: the objects of the sources the target has now, from the build's own map (a
        # removed file's object stays behind in the folder).
        mapping = os.path.join(build, f"{name}.build", "output-file-map.json")
        if not os.path.exists(mapping):
            continue  # a C target, or not built
        with open(mapping) as file:
            entries = json.load(file)
        objects = sorted((source, entry["object"]) for source, entry in entries.items()
                         if source and "object" in entry and os.path.exists(source))
        checked += 1
        for source_path, path in objects:
            done = subprocess.run(["nm", "-u", path], capture_output=True, text=True, check=True)
            raw = []
            for line in done.stdout.splitlines():
                symbol = line.split()[-1]
                if symbol in functions and symbol not in ALLOWED:
                    raw.append(symbol)
                elif symbol.startswith("$s5Glibc"):
                    raw.append(demangle(symbol))
            if raw:
                source = os.path.relpath(source_path, root)
                problems.append(f"{source}: calls {', '.join(sorted(set(raw)))}")
    if checked == 0:
        sys.exit("check-syscalls: nothing built to check (run swift build first)")
    for problem in problems:
        print("check-syscalls:", problem, file=sys.stderr)
    if problems:
        print("check-syscalls: the calls above bypass the funnel; make them through PhotoTimerPOSIX "
              "(SystemCall.value, FileDescriptor, FileSystem), adding what it lacks there", file=sys.stderr)
        sys.exit(1)
    print(f"check-syscalls: {checked} product targets make every system call through the funnel")


def demangle(symbol):
    done = subprocess.run([swift, "demangle", "--simplified", symbol], capture_output=True, text=True)
    text = done.stdout.strip()
    return "Glibc." + text.split("---> ")[-1] if done.returncode == 0 and text else symbol


main()
