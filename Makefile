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

test: build
	$(SWIFT) test

demo: release
	$(BIN_RELEASE) --source demo $(ARGS)

bench: release
	@bash scripts/bench.sh

fuzz: setup
	@bash scripts/fuzz.sh

clean:
	$(SWIFT) package clean
