#!/usr/bin/python3
"""Layers point one way. layers.json puts every target of the package in one layer; this check
refuses, with the file and what to change:

- a target in no layer, or in two;
- a dependency in Package.swift that points up or sideways (to a target of its own layer or
  one above); test targets are the top layer;
- a Swift import of a project module the target does not depend on directly (SwiftPM lets a
  module import whatever it happens to have built, a transitive dependency included);
- a platform module (Glibc, Musl, Darwin…) or a C module imported by a platform-free target;
- a C or C++ include, in a C target or a system library's shim, of a library the target does
  not declare: a header of the C library or the kernel is always allowed, one from another
  Debian package only when the target links one of that package's libraries
  (`linkerSettings: .linkedLibrary`), names it among its apt providers, or finds it through
  its own pkg-config flags.

`--self-test` runs the check on scripts/fixtures/layers, a package with one of each mistake,
and fails unless each is refused and nothing else is. Both run in `make lint`.
"""
import argparse
import functools
import glob
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
swift = os.environ.get("SWIFT", "swift")
PLATFORM_MODULES = {"Glibc", "Musl", "Darwin", "Bionic", "WinSDK", "ucrt", "Android", "WASILibc"}
# Debian packages whose headers any C target may include: the C library, the kernel's, the
# compilers' own.
PLATFORM_PACKAGES = re.compile(r"^(libc6-dev|linux-libc-dev|libstdc\+\+-\d+-dev|libgcc-\d+-dev|libc\+\+.*)$")
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+|@preconcurrency\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
SYSTEM_DIRS = ["/usr/include/x86_64-linux-gnu", "/usr/include"] + sorted(
    glob.glob("/usr/include/c++/*") + glob.glob("/usr/include/x86_64-linux-gnu/c++/*"))
COMPILER_DIRS = glob.glob("/usr/lib/gcc/x86_64-linux-gnu/*/include") + glob.glob(
    os.path.join(os.path.dirname(os.path.realpath(__import__("shutil").which(swift) or swift)),
                 "..", "lib", "clang", "*", "include"))


def dump(package):
    done = subprocess.run([swift, "package", "dump-package"], cwd=package, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"check-layers: swift package dump-package failed in {package}:\n{done.stderr}")
    return json.loads(done.stdout)


def direct(target, targets):
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    return [n for n in names if n in targets]


def folder(package, target):
    if target.get("path"):
        return os.path.join(package, target["path"])
    return os.path.join(package, "Tests" if target["type"] == "test" else "Sources", target["name"])


def settings(target, kind):
    return [s["kind"][kind]["_0"] for s in target.get("settings", []) if kind in s["kind"]]


@functools.lru_cache(maxsize=None)
def owner(path):
    """The Debian package that installed the file, or None."""
    done = subprocess.run(["dpkg", "-S", os.path.realpath(path)], capture_output=True, text=True)
    if done.returncode != 0:
        done = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    return done.stdout.split(":")[0].strip() if done.returncode == 0 else None


@functools.lru_cache(maxsize=None)
def ships_library(package, name):
    done = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
    pattern = re.compile(rf"/lib{re.escape(name)}\.(so|a)(\.|$)")
    return any(pattern.search(line) for line in done.stdout.splitlines())


@functools.lru_cache(maxsize=None)
def pkg_config_dirs(name):
    done = subprocess.run(["pkg-config", "--cflags-only-I", name], capture_output=True, text=True)
    return [flag[2:] for flag in done.stdout.split() if flag.startswith("-I")]


def check(package, layers_path):
    manifest = dump(package)
    targets = {t["name"]: t for t in manifest["targets"]}
    with open(layers_path) as file:
        declared = json.load(file)
    rank, layer_name, problems = {}, {}, []
    for index, layer in enumerate(declared["layers"]):
        for name in layer["targets"]:
            if name in rank:
                problems.append(f"layers.json: {name} is in two layers ({layer_name[name]}, {layer['name']})")
            rank[name], layer_name[name] = index, layer["name"]
    top = len(declared["layers"])
    for name, target in targets.items():
        if target["type"] == "test":
            rank.setdefault(name, top)
            layer_name.setdefault(name, "tests")
        elif name not in rank:
            problems.append(f"layers.json: {name} is in no layer; add it to the layer it belongs to")
    for name in rank:
        if name not in targets:
            problems.append(f"layers.json: {name} is not a target of the package; take it out")
    platform_free = set(declared.get("platformFree", []))
    c_modules = {n for n, t in targets.items() if t["type"] == "system" or is_c(package, t)}

    for name, target in targets.items():
        if name not in rank:
            continue
        dependencies = direct(target, targets)
        for dependency in dependencies:
            if dependency in rank and rank[dependency] >= rank[name]:
                way = "sideways (both in" if rank[dependency] == rank[name] else "up (to"
                problems.append(
                    f"Package.swift: {name} ({layer_name[name]}) depends on {dependency}, which points "
                    f"{way} {layer_name[dependency]}); move one of them, or the code, to the right layer")
        allowed = set(dependencies) | {name}
        for path in sources(folder(package, target), (".swift",)):
            text = open(path, encoding="utf-8").read()
            for module in IMPORT.findall(text):
                where = os.path.relpath(path, package)
                if module in targets and module not in allowed:
                    problems.append(f"{where}: imports {module}, which {name} does not depend on directly; "
                                    "declare it in Package.swift, or leave the import out")
                if name in platform_free and (module in PLATFORM_MODULES or module in c_modules):
                    problems.append(f"{where}: imports {module} in platform-free {name}; "
                                    "move the platform code to a Linux target")
        if name in c_modules:
            problems += includes(package, target)
    return problems, len(targets)


def is_c(package, target):
    return target["type"] == "regular" and any(
        True for _ in sources(folder(package, target), (".c", ".cpp", ".cc", ".m")))


def sources(directory, extensions):
    for directory_path, _, files in os.walk(directory):
        for file in sorted(files):
            if file.endswith(extensions):
                yield os.path.join(directory_path, file)


def includes(package, target):
    """Each include of a C target or shim resolved to its Debian package, and that package
    judged against what the target declares."""
    problems = []
    base = folder(package, target)
    own = [base, os.path.join(base, "include")]
    configured = pkg_config_dirs(target["pkgConfig"]) if target.get("pkgConfig") else []
    providers = {p for entry in target.get("providers", []) for names in entry.get("apt", []) for p in names}
    linked = settings(target, "linkedLibrary")
    for path in sources(base, (".c", ".cpp", ".cc", ".h", ".hpp")):
        where = os.path.relpath(path, package)
        for style, header in INCLUDE.findall(open(path, encoding="utf-8").read()):
            if style == '"' and any(os.path.exists(os.path.join(d, header)) for d in [os.path.dirname(path), *own]):
                continue
            if any(os.path.exists(os.path.join(d, header)) for d in configured):
                continue  # found through the target's own pkg-config flags
            found = next((os.path.join(d, header) for d in SYSTEM_DIRS if os.path.exists(os.path.join(d, header))), None)
            if found is None:
                if any(os.path.exists(os.path.join(d, header)) for d in COMPILER_DIRS):
                    continue
                problems.append(f"{where}: includes <{header}>, found nowhere this target declares; "
                                "install its package and declare it (pkgConfig or linkedLibrary)")
                continue
            package_name = owner(found)
            if package_name is None or PLATFORM_PACKAGES.match(package_name):
                continue
            if package_name in providers or any(ships_library(package_name, l) for l in linked):
                continue
            problems.append(f"{where}: includes <{header}> from {package_name}, a library {target['name']} "
                            "does not declare; link it (linkerSettings: .linkedLibrary) or name it in "
                            "the system library's providers")
    return problems


def self_test():
    fixture = os.path.join(root, "scripts", "fixtures", "layers")
    problems, _ = check(fixture, os.path.join(fixture, "layers.json"))
    with open(os.path.join(fixture, "expected.txt")) as file:
        expected = [line.strip() for line in file if line.strip() and not line.startswith("#")]
    failures = [f"not refused: {e}" for e in expected if not any(e in p for p in problems)]
    failures += [f"refused, but not a mistake of the fixture: {p}" for p in problems
                 if not any(e in p for e in expected)]
    for failure in failures:
        print("check-layers: self-test:", failure, file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"check-layers: self-test: the fixture's {len(expected)} mistakes refused, nothing else")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--self-test", action="store_true")
    options = parser.parse_args()
    if options.self_test:
        self_test()
        return
    problems, count = check(root, os.path.join(root, "layers.json"))
    for problem in problems:
        print("check-layers:", problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-layers: {count} targets in their layers; every edge points down, every import "
          "and include is declared")


main()
