# phototimer — `make run` takes a photo, `make test` runs every gate. Both install missing
# Debian packages first (scripts/packages.txt).

SWIFT ?= swift
STRICT := -Xswiftc -warnings-as-errors
# The sanitizer build lives apart so it does not invalidate the normal one.
TSAN_PATH := .build/tsan
# Seeded fuzz runs under the sanitizer (lower it for a quicker local check).
TSAN_FUZZ_RUNS ?= 10000
ARGS ?=

.PHONY: setup build run test lint unit tsan docs bench stress clean

setup:
	@scripts/install-packages.sh

build: setup
	$(SWIFT) build $(STRICT)

# NB: release: the image and place lookups are 20–50× slower in a debug build.
run: setup
	$(SWIFT) run -c release $(STRICT) phototimer $(ARGS)

test: setup
	$(SWIFT) build --build-tests $(STRICT)
	$(MAKE) --no-print-directory lint
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory tsan
	scripts/build-docs.sh

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

tsan:
	PHOTOTIMER_FUZZ_RUNS=$(TSAN_FUZZ_RUNS) $(SWIFT) test --sanitize=thread \
	  --scratch-path $(TSAN_PATH) --filter 'PhotoTimerTests|PhotoTimerPOSIXTests|PhotoTimerGPSDTests|PhotoTimerImagingTests|FullRunTests|PhotoTimerFFmpegTests'

docs:
	scripts/build-docs.sh

# NB: builds every product: the command figures run the release `phototimer` beside the bench.
bench: setup
	$(SWIFT) build -c release $(STRICT)
	.build/release/phototimer-bench

# The unit suite 20 times in a row with both cores kept busy (flakiness check).
stress: setup
	$(SWIFT) build --build-tests $(STRICT)
	scripts/stress.sh 20

clean:
	rm -rf .build
