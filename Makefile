# selfie-capture. `make demo` and `make test` each work alone on a fresh Debian 12 machine
# (they run setup and build first). Run as root, or have sudo.
SWIFT ?= swift
ARGS ?=
BIN_DEBUG = .build/debug/selfie-capture
BIN_RELEASE = .build/release/selfie-capture

.PHONY: setup build release test demo bench fuzz clean

setup:
	@bash scripts/setup.sh

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

# Without a terminal (CI) the test run has a deadline (CI stops at 90 min, build included) and
# line-buffered output, so a hang shows which tests had started instead of losing the last
# 4 KiB. In a terminal it runs as is (timeout's own process group would not get Ctrl-C).
TEST_TIMEOUT ?= 45m
test: build
	@if [ -t 1 ]; then $(SWIFT) test; \
	else stdbuf -oL -eL timeout --kill-after=30s $(TEST_TIMEOUT) $(SWIFT) test; fi

demo: release
	$(BIN_RELEASE) --source demo $(ARGS)

# Every benchmark lives in Benchmarks/ (one entry point); BENCH="speed ui" runs only those.
BENCH ?=
bench: release
	@bash Benchmarks/run.sh $(BENCH)

fuzz: setup
	@bash scripts/fuzz.sh

clean:
	$(SWIFT) package clean
