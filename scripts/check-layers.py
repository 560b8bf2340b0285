#!/usr/bin/python3
"""Layers point one way: a target imports only the project's targets it depends on (directly
or through them), as Package.swift declares. SwiftPM itself lets a module import any module it
happens to have built, so a lower layer could reach up (POSIX importing the engine) without a
word; this check refuses it. Part of `make lint`."""
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
swift = os.environ.get("SWIFT", "swift")
package = json.loads(
    subprocess.run(
        [swift, "package", "dump-package"], cwd=root, check=True, capture_output=True, text=True
    ).stdout
)
targets = {t["name"]: t for t in package["targets"]}


def direct(name):
    names = []
    for dependency in targets[name].get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    return [n for n in names if n in targets]


closure = {}


def reach(name):
    if name not in closure:
        closure[name] = set()
        for dependency in direct(name):
            closure[name] |= {dependency} | reach(dependency)
    return closure[name]


problems = []
importing = re.compile(r"^\s*(?:@testable\s+)?import\s+(\w+)", re.M)
for name, target in targets.items():
    folder = os.path.join(root, target.get("path") or ("Tests" if target["type"] == "test" else "Sources"), "" if target.get("path") else name)
    allowed = reach(name) | {name}
    for directory, _, files in os.walk(folder):
        for file in files:
            if not file.endswith(".swift"):
                continue
            path = os.path.join(directory, file)
            with open(path, encoding="utf-8") as source:
                for module in importing.findall(source.read()):
                    if module in targets and module not in allowed:
                        problems.append(f"{os.path.relpath(path, root)}: imports {module}, which {name} does not depend on")
for problem in problems:
    print("check-layers:", problem, file=sys.stderr)
if problems:
    print("check-layers: declare the dependency in Package.swift, or move the code down a layer", file=sys.stderr)
    sys.exit(1)
print(f"check-layers: {len(targets)} targets import only what they depend on")
