# phototimer — `make run` takes a photo, `make test` runs every gate. Both install missing
# Debian packages first (scripts/packages.txt).

SWIFT ?= swift
STRICT := -Xswiftc -warnings-as-errors
# Release builds link the Swift runtime and Foundation in (--static-swift-stdlib): the programs
# then need only Debian's own libraries, as the package does, and every release target shares
# one build.
RELEASE := -c release $(STRICT) --static-swift-stdlib
# The sanitizer build lives apart so it does not invalidate the normal one.
TSAN_PATH := .build/tsan
# Seeded fuzz runs under the sanitizer (lower it for a quicker local check).
TSAN_FUZZ_RUNS ?= 10000
# AddressSanitizer's build lives apart too.
ASAN_PATH := .build/asan
# libFuzzer: seconds per parser for `make fuzz`, and for the smoke run in `make test`.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 4
ARGS ?=
# `make bench BENCH=--command`: one part of the benchmark (its flags: phototimer-bench --help).
BENCH ?=
# `make plain TESTS=CountdownTests` (and tsan, asan, stress): only the tests matching TESTS, in
# one `swift test` of the pass. make test's smoke run of `make stress` uses it.
TESTS ?=
# Every `swift test` in `make test` runs under scripts/watchdog.py: past its limit the run fails
# with every thread's backtrace, the open descriptors and the tests that never finished, instead
# of sitting until CI's 90 minutes run out. Each limit is about three times the pass's usual
# length on a clean clone here (docs/testing.md has the measured times). Whatever a run leaves
# running (its session: a crashed test's X server, window or backtracer) is named and stopped,
# and a crashed test process whose output a leftover holds open ends the run after 30 s, not
# at the limit.
WATCHDOG := scripts/watchdog.py
PLAIN_LIMIT ?= 900
PIPEWIRE_LIMIT ?= 300
ALONE_LIMIT ?= 900
REMOTE_LIMIT ?= 300
TSAN_LIMIT ?= 900
ASAN_LIMIT ?= 1200
# `make install`: where, and (for packaging) under which staging root.
PREFIX ?= /usr/local
DESTDIR ?=
# Where scripts/pkgconfig.sh writes SwiftPM's pkg-config files when it may not write them to
# /usr/local/lib/pkgconfig (not root, no password-less sudo).
export PKG_CONFIG_PATH := $(CURDIR)/.build/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

.PHONY: setup build run run-gtk test plain remote-release lint api-baseline tsan asan fuzz fuzz-smoke docs bench soak stress install deb deb-test clean

setup:
	@scripts/install-packages.sh

build: setup
	$(SWIFT) build $(STRICT)

# NB: release: the image and place lookups are 20–50× slower in a debug build. The build is
# `make install`'s and the package's (RELEASE), then the binary runs: `swift run` does not take
# --static-swift-stdlib, and a `swift run` without it would be a second release configuration.
run: setup
	$(SWIFT) build $(RELEASE) --product phototimer
	.build/release/phototimer $(ARGS)

# The window, on the desktop's display.
run-gtk: setup
	$(SWIFT) build $(RELEASE) --product phototimer-gtk
	.build/release/phototimer-gtk $(ARGS)

# NB: PipeWire's clients find their daemon through the environment, which is process-wide:
# the tests that start a daemon of their own run in a process of their own, alone (beside the
# other suites they hung the whole run: setenv while other threads spawn and read it).
# NB: the tests' VM is prepared before any test runs: in a clean clone that fetches a kernel
# and builds a module, minutes of both cores that starved the whole test process when the
# first VM test did it mid-run (every test 190–240 s late, the timed ones failing).
test: setup
	$(SWIFT) build --build-tests $(STRICT)
	scripts/vm/prepare.sh >/dev/null
	SWIFT=$(SWIFT) scripts/check-swiftpm.sh
	$(MAKE) --no-print-directory lint
	scripts/test-watchdog.sh
	$(MAKE) --no-print-directory plain
	$(MAKE) --no-print-directory remote-release
	$(MAKE) --no-print-directory deb-test
	scripts/check-make-targets.sh run run-gtk install bench soak
	$(MAKE) --no-print-directory tsan
	$(MAKE) --no-print-directory asan
	scripts/check-make-targets.sh stress
	$(MAKE) --no-print-directory fuzz-smoke
	$(MAKE) --no-print-directory docs

# NB: the group photos through every camera path (16 runs of the binary, each reading the
# 100 MB face model) run after the other suites, not beside them: beside them the model once
# took over 8 s to read and the people step came too late for the photo. The booth's runs (a
# 600 dpi collage each) too: beside the others under AddressSanitizer one took over 50 s and
# the people's blink test ran out of time; the window's booth with them. So do the printing
# runs (a booth's strip through CUPS's filters: 139 s beside the others, and the blink test ran
# out of time again). Each runs in a `swift test` of its own, one after the other.
ALONE := GroupCameraTests|BoothCommandTests|WindowBoothTests|PrintCommandTests|WindowPrintTests

# The debug build's tests (run `make build` or `swift build --build-tests` first).
plain:
	$(WATCHDOG) $(PLAIN_LIMIT) -- $(SWIFT) test --skip-build \
	  $(if $(TESTS),--filter '$(TESTS)',--skip 'PipeWireTests|$(ALONE)')
	$(if $(TESTS),,$(WATCHDOG) $(PIPEWIRE_LIMIT) -- $(SWIFT) test --skip-build --filter PipeWireTests)
	$(if $(TESTS),,for suite in $(subst |, ,$(ALONE)); do \
	  $(WATCHDOG) $(ALONE_LIMIT) -- $(SWIFT) test --skip-build --filter "$$suite" || exit 1; done)

# The phone's page in chromium against the release `phototimer`, the build `make run` uses:
# its server's threads race differently when optimized (a hub wait once crashed only there).
remote-release:
	$(SWIFT) build $(RELEASE) --product phototimer
	PHOTOTIMER_BINARY=$(CURDIR)/.build/release/phototimer $(WATCHDOG) $(REMOTE_LIMIT) -- \
	  $(SWIFT) test --skip-build --filter RemotePageTests

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests
	desktop-file-validate share/applications/org.phototimer.PhotoTimer.desktop
	appstreamcli validate --no-net share/metainfo/org.phototimer.PhotoTimer.metainfo.xml
	$(SWIFT) build $(STRICT) >/dev/null
	SWIFT=$(SWIFT) scripts/check-no-blocking.sh
	SWIFT=$(SWIFT) scripts/check-layers.py --self-test
	SWIFT=$(SWIFT) scripts/check-layers.py
	SWIFT=$(SWIFT) scripts/check-api.py --self-test
	SWIFT=$(SWIFT) scripts/check-api.py

# Records each library's public API (api/*.json) from the debug build, after a deliberate
# change: keep the old form deprecated for a release and say so in CHANGELOG.md first.
api-baseline:
	$(SWIFT) build $(STRICT)
	SWIFT=$(SWIFT) scripts/check-api.py --record

tsan:
	PHOTOTIMER_FUZZ_RUNS=$(TSAN_FUZZ_RUNS) $(WATCHDOG) $(TSAN_LIMIT) -- \
	  $(SWIFT) test --sanitize=thread \
	  --scratch-path $(TSAN_PATH) --skip 'Vivid|PipeWireTests' \
	  --filter '$(or $(TESTS),PhotoTimerTests|PhotoTimerPOSIXTests|PhotoTimerGPSDTests|PhotoTimerImagingTests|FullRunTests|PhotoTimerFFmpegTests|PhotoTimerGStreamerTests|PhotoTimerRemoteTests)'

# The whole suite under AddressSanitizer (C interop included: libjpeg-turbo, libexif, libpng).
# NB: leak detection off: Swift's runtime keeps its metadata caches for the process's life; lld:
# gold warns about every ASan runtime symbol it cannot export. The VM's checks run once, in the
# plain pass: under emulation they take a minute, and the binary they run is the plain one.
# The GStreamer suites run after the others, not beside them: instrumented, their pipelines'
# threads (nice 0) took both cores from the scene camera's renderer (nice 15) and the other
# suites' cameras missed their 10 s limits. PipeWire's suite runs alone, as in the plain pass
# (its daemon's environment is process-wide). Swift's own crash backtracer is off here: under
# ASan its helper reading the crashed process's stacks is itself reported (a stack overflow
# read), and the backtracer then hung with the test's output open (make stress); ASan prints
# its own stacks, a Swift trap still says where it failed.
ASAN_TEST := ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no $(WATCHDOG)
ASAN_FLAGS := --sanitize=address --scratch-path $(ASAN_PATH) -Xswiftc -use-ld=lld
asan:
	$(ASAN_TEST) $(ASAN_LIMIT) -- $(SWIFT) test $(ASAN_FLAGS) \
	  $(if $(TESTS),--filter '$(TESTS)',--skip 'PhotoTimerGStreamerTests|$(ALONE)')
	$(if $(TESTS),,$(ASAN_TEST) $(PIPEWIRE_LIMIT) -- $(SWIFT) test $(ASAN_FLAGS) \
	  --filter PhotoTimerGStreamerTests --skip 'Vivid|PipeWireTests')
	$(if $(TESTS),,for suite in $(subst |, ,$(ALONE)); do \
	  $(ASAN_TEST) $(ALONE_LIMIT) -- $(SWIFT) test $(ASAN_FLAGS) --filter "$$suite" || exit 1; done)
	$(if $(TESTS),,$(ASAN_TEST) $(PIPEWIRE_LIMIT) -- $(SWIFT) test $(ASAN_FLAGS) --filter PipeWireTests)

# Every hand-written parser under libFuzzer for FUZZ_SECONDS each, after replaying its corpus;
# then the engine's seeded cancel/restart fuzz in a release build: ENGINE_FUZZ_RUNS schedules
# for each seed of ENGINE_FUZZ_SEEDS (10^6 in all by default; each seed's share stays well inside
# the suite's 5-minute limit).
ENGINE_FUZZ_RUNS ?= 125000
ENGINE_FUZZ_SEEDS ?= 0x10000000 0x20000000 0x30000000 0x40000000 0x50000000 0x60000000 \
  0x70000000 0x80000000
fuzz: setup
	scripts/fuzz.sh $(FUZZ_SECONDS)
	$(SWIFT) build -c release --build-tests $(STRICT) -Xswiftc -enable-testing \
	  --scratch-path .build/fuzz-engine
	for seed in $(ENGINE_FUZZ_SEEDS); do \
	  PHOTOTIMER_FUZZ_SEED=$$seed PHOTOTIMER_FUZZ_RUNS=$(ENGINE_FUZZ_RUNS) $(SWIFT) test -c release \
	    -Xswiftc -enable-testing \
	    --skip-build --scratch-path .build/fuzz-engine --filter PhotoTimerFuzzTests || exit 1; \
	done

fuzz-smoke:
	scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS)

docs:
	scripts/build-docs.sh

# NB: builds every product, in the one release configuration: the command figures run the
# release `phototimer` beside the bench.
bench: setup
	$(SWIFT) build $(RELEASE)
	.build/release/phototimer-bench $(BENCH)

# A long run: a 2,000-shot time-lapse (scene camera, 640×480, every 0.25 s) and 2,000
# start/cancel cycles against ffmpeg, then 1,000 booth sessions of `phototimer booth` in a
# pseudo-terminal, with memory, descriptors and threads as slopes.
SOAK_COUNT ?= 2000
BOOTH_SOAK_COUNT ?= 1000
soak: setup
	$(SWIFT) build $(RELEASE)
	.build/release/phototimer-bench --soak $(SOAK_COUNT)
	.build/release/phototimer-bench --booth-soak $(BOOTH_SOAK_COUNT)

# The plain, ThreadSanitizer and AddressSanitizer passes STRESS_RUNS times each, each exactly as
# `make test` runs it (under the watchdog), while a separate hog keeps both cores busy
# (flakiness check; STRESS_PASSES picks passes).
STRESS_RUNS ?= 10
STRESS_PASSES ?= plain tsan asan
stress: setup
	$(SWIFT) build --build-tests $(STRICT)
	scripts/vm/prepare.sh >/dev/null
	STRESS_PASSES="$(STRESS_PASSES)" scripts/stress.sh $(STRESS_RUNS)

# Both programs, the place data, the desktop entry, icon and AppStream metadata, the manual pages
# and the shell completions (generated by the built program from its option declarations).
install: setup
	$(SWIFT) build $(RELEASE) --product phototimer
	$(SWIFT) build $(RELEASE) --product phototimer-gtk
	desktop-file-validate share/applications/org.phototimer.PhotoTimer.desktop
	install -Dm755 .build/release/phototimer $(DESTDIR)$(PREFIX)/bin/phototimer
	install -Dm755 .build/release/phototimer-gtk $(DESTDIR)$(PREFIX)/bin/phototimer-gtk
	install -Dm644 -t $(DESTDIR)$(PREFIX)/share/phototimer \
	  .build/release/phototimer_PhotoTimerLocation.resources/cities15000.tsv \
	  .build/release/phototimer_PhotoTimerLocation.resources/countries.tsv
	install -Dm644 -t $(DESTDIR)$(PREFIX)/share/applications \
	  share/applications/org.phototimer.PhotoTimer.desktop
	install -Dm644 -t $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps \
	  share/icons/hicolor/scalable/apps/phototimer.svg
	install -Dm644 -t $(DESTDIR)$(PREFIX)/share/metainfo \
	  share/metainfo/org.phototimer.PhotoTimer.metainfo.xml
	for program in phototimer phototimer-gtk; do \
	  install -d $(DESTDIR)$(PREFIX)/share/man/man1 && \
	  .build/release/phototimer __generate man $$program \
	    > $(DESTDIR)$(PREFIX)/share/man/man1/$$program.1 || exit 1; \
	done
	for shell in bash zsh fish; do \
	  path=$(DESTDIR)$(PREFIX)/$$(.build/release/phototimer __generate completion-path $$shell) && \
	  install -d $$(dirname $$path) && \
	  .build/release/phototimer __generate completion $$shell > $$path || exit 1; \
	done
	# NB: bash-completion and fish load a command's completion by its name.
	ln -sf phototimer $(DESTDIR)$(PREFIX)/share/bash-completion/completions/phototimer-gtk
	ln -sf phototimer.fish \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/phototimer-gtk.fish

# The Debian package: .build/deb/phototimer_VERSION_ARCH.deb (scripts/deb/build.sh; lintian runs
# on it). deb-test installs it on a clean Debian 12 root and runs it there (as root: a chroot).
deb: setup
	$(SWIFT) build $(RELEASE) --product phototimer
	$(SWIFT) build $(RELEASE) --product phototimer-gtk
	scripts/deb/build.sh

deb-test: deb
	scripts/deb/test-install.sh

clean:
	rm -rf .build
