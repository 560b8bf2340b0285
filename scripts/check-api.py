#!/usr/bin/python3
"""The public API is a promise: each library product's public API, dumped from the debug build
with the toolchain's swift-api-digester, is compared with its checked-in baseline in api/.

A change that removes or alters public API is refused; one that only adds passes. To change
API, keep the old form deprecated (`@available(*, deprecated, renamed: "...")`) for a release,
say so in CHANGELOG.md, and then record the new baseline with `make api-baseline`. Part of
`make lint` (after `swift build`: it reads .build/debug/Modules).

    scripts/check-api.py            compare every library with its baseline
    scripts/check-api.py --record   write the baselines from the current build
    scripts/check-api.py --baseline DIR --modules M...   compare with another folder's baselines
    scripts/check-api.py --self-test   prove the check refuses a removed and a changed
                                       declaration and lets an added one pass (in make lint)
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
swift = os.environ.get("SWIFT", "swift")


def package():
    return json.loads(
        subprocess.run(
            [swift, "package", "dump-package"], cwd=root, check=True, capture_output=True, text=True
        ).stdout
    )


def libraries(manifest):
    """The modules of the package's library products: the API others build against."""
    names = []
    for product in manifest["products"]:
        if "library" in product["type"]:
            names += [t for t in product["targets"] if t not in names]
    return names


def search_flags(manifest, build):
    """What the digester needs to load the modules: Swift modules, C modules (system library
    folders, the module maps SwiftPM wrote for C targets) and the C headers pkg-config names."""
    flags = ["-I", os.path.join(build, "Modules")]
    packages = []
    for target in manifest["targets"]:
        name = target["name"]
        if target["type"] == "system":
            folder = os.path.join(root, target.get("path") or os.path.join("Sources", name))
            flags += ["-I", folder]
            if target.get("pkgConfig"):
                packages.append(target["pkgConfig"])
        elif os.path.exists(os.path.join(build, f"{name}.build", "module.modulemap")):
            flags += ["-I", os.path.join(build, f"{name}.build")]
            include = os.path.join(root, "Sources", name, "include")
            if os.path.isdir(include):
                flags += ["-Xcc", f"-I{include}"]
    for name in packages:
        found = subprocess.run(["pkg-config", "--cflags", name], capture_output=True, text=True)
        if found.returncode != 0:
            sys.exit(f"check-api: pkg-config does not know {name} (run make setup): {found.stderr.strip()}")
        for flag in found.stdout.split():
            flags += ["-Xcc", flag]
    return flags


def digester():
    found = shutil.which("swift-api-digester")
    if found:
        return found
    beside = os.path.join(os.path.dirname(os.path.realpath(shutil.which(swift) or swift)), "swift-api-digester")
    if os.path.exists(beside):
        return beside
    sys.exit("check-api: swift-api-digester not found beside swift (it ships with the toolchain)")


def run(arguments):
    return subprocess.run([digester(), *arguments], capture_output=True, text=True)


def dump(module, flags, out):
    done = run(["-dump-sdk", "-module", module, *flags, "-target", "x86_64-unknown-linux-gnu",
                "-avoid-location", "-avoid-tool-args", "-abort-on-module-fail", "-o", out])
    if done.returncode != 0 or not os.path.exists(out):
        sys.exit(f"check-api: could not read {module}'s API (build first: swift build):\n{done.stderr.strip()}")


def compare(module, baseline, flags, scratch):
    """The digester's breakages of `module` against the baseline file, one line each."""
    report = os.path.join(scratch, f"{module}.txt")
    done = run(["-diagnose-sdk", "-module", module, "-baseline-path", baseline, *flags,
                "-target", "x86_64-unknown-linux-gnu", "-abort-on-module-fail", "-o", report])
    said = open(report).read() if os.path.exists(report) else ""
    breaks = [line.strip() for line in said.splitlines() if line.strip() and not line.startswith("/*")]
    if done.returncode != 0 and not breaks:
        return [f"the digester failed: {done.stderr.strip()}"]
    return breaks


def self_test(flags, baselines):
    """Edits a copy of PhotoTimerJPEG's baseline as a change of the library would look from the
    other side (a baseline naming what the build no longer has), and checks each verdict."""
    module = "PhotoTimerJPEG"
    with open(os.path.join(baselines, f"{module}.json")) as file:
        original = json.load(file)

    def store(tree):
        return next(c for c in tree["ABIRoot"]["children"] if c.get("name") == "PhotoStore")

    def edited(change):
        tree = json.loads(json.dumps(original))
        change(store(tree)["children"])
        return tree

    def renamed(children):  # the baseline had init(place:…), which the build lacks: removed
        init = next(c for c in children if c["printedName"] == "init(folder:quality:creation:)")
        init.update(printedName="init(place:quality:creation:)", usr=init["usr"] + "X",
                    mangledName=init["mangledName"] + "X")

    def retyped(children):  # the baseline's `quality` was a Double: its type changed
        quality = next(c for c in children if c["printedName"] == "quality")
        quality["children"][0].update(name="Double", printedName="Swift.Double",
                                      usr="s:Sd")

    def added(children):  # the baseline lacks checkFolder(): the build adds it, which is fine
        children[:] = [c for c in children if c["printedName"] != "checkFolder()"]

    cases = [("a removed initialiser", renamed, "has been removed"),
             ("a changed property type", retyped, "has declared type change"),
             ("an added method", added, None)]
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        for name, change, expected in cases:
            path = os.path.join(scratch, f"{module}.json")
            with open(path, "w") as file:
                json.dump(edited(change), file)
            breaks = compare(module, path, flags, scratch)
            if expected is None and breaks:
                failures.append(f"{name} was refused: {breaks}")
            elif expected is not None and not any(expected in line for line in breaks):
                failures.append(f"{name} was not refused (said {breaks}, expected {expected!r})")
    for failure in failures:
        print("check-api: self-test:", failure, file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"check-api: self-test: {len(cases)} cases, each judged right")


def examples(flags, folder):
    """Type-checks each released guide's examples (api/examples-VERSION.swift) against the
    build: an app written against the last release must still build (warnings allowed)."""
    problems = []
    swiftc = os.path.join(os.path.dirname(digester()), "swiftc")
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("examples-") and name.endswith(".swift")):
            continue
        done = subprocess.run(
            [swiftc, "-typecheck", "-swift-version", "6", *flags, os.path.join(folder, name)],
            capture_output=True, text=True)
        errors = [line for line in done.stderr.splitlines() if ": error:" in line]
        if done.returncode != 0:
            said = "\n  ".join(errors or done.stderr.strip().splitlines()[-5:])
            problems.append(f"{name} no longer builds against this API:\n  {said}")
        else:
            warned = sum(": warning:" in line for line in done.stderr.splitlines())
            print(f"check-api: {name} builds ({warned} deprecation warnings)")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", action="store_true", help="write the baselines from the build")
    parser.add_argument("--baseline", default=os.path.join(root, "api"), help="the baselines' folder")
    parser.add_argument("--build", default=os.path.join(root, ".build", "debug"))
    parser.add_argument("--modules", nargs="*", help="only these modules")
    parser.add_argument("--self-test", action="store_true", help="prove the check's verdicts")
    options = parser.parse_args()
    manifest = package()
    modules = options.modules or libraries(manifest)
    flags = search_flags(manifest, options.build)
    if options.self_test:
        self_test(flags, options.baseline)
        return
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        for module in modules:
            baseline = os.path.join(options.baseline, f"{module}.json")
            if options.record:
                os.makedirs(options.baseline, exist_ok=True)
                dump(module, flags, baseline)
                print(f"check-api: recorded {os.path.relpath(baseline, root)}")
                continue
            if not os.path.exists(baseline):
                problems.append(f"{module}: no baseline {os.path.relpath(baseline, root)} "
                                "(a new library: record it with make api-baseline)")
                continue
            problems += [f"{module}: {line}" for line in compare(module, baseline, flags, scratch)]
    if not options.record and not options.modules:
        problems += examples(flags, options.baseline)
    for problem in problems:
        print("check-api:", problem, file=sys.stderr)
    if problems:
        print("check-api: public API was removed or changed. Keep the old form, deprecated "
              "(@available(*, deprecated, renamed: ...)), say so in CHANGELOG.md, and record the "
              "new baseline with make api-baseline.", file=sys.stderr)
        sys.exit(1)
    if not options.record:
        print(f"check-api: {len(modules)} libraries keep their public API")


main()
