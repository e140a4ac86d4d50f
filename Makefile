# One entry point per job. `make test` is what CI runs.
SWIFT ?= swift
# SwiftPM's debug bin dir (a link it keeps to the platform's); not asked of swift, which litters TMPDIR when it runs.
BIN_DIR = $(CURDIR)/.build/debug
# The test targets and the demo run swift with a TMPDIR of their own, removed afterwards (scripts/with-own-tmp.sh).
OWN_TMP = scripts/with-own-tmp.sh

.PHONY: deps build release test test-unit test-integration test-web web-map demo bench bench-mavlink bench-field \
	bench-footprint bench-fleet bench-autopilots faults clean board board-flight packages packages-check

# ensure-broker-deps.sh: RabbitMQ and NATS for the other-broker suites (their own nodes; never the system's).
deps:
	@scripts/ensure-deps.sh
	@scripts/ensure-broker-deps.sh

build: deps
	$(SWIFT) build

release: deps
	scripts/swift-release.sh

# Builds the services and all test targets, then runs every suite. Integration suites start their own
# mosquitto on a free loopback port and run the real executables from the bin dir (the live map's browser test,
# MapPageTests, drives headless Chromium with Selenium). test-web: the map's JS codec against the golden fixtures.
# Two passes: the pure and in-memory suites, then the integration suites. Together, the property tests and fuzzers
# held both threads of the test process's task pool for ~100 s while the integration tests (on threads of their own)
# waited on that pool for their in-process fakes and `eventually`: every wait in that stretch timed out at once.
# At most this many integration tests run at once (swift-testing's width; default three per core). Unbounded, every
# suite's flight stack ran together (25 drone-sims, 43 mosquittos, load 17-20 on two cores) and tests whose harness
# must act within seconds of the flight (ColdBoot's 3 s bound, the restart mission's crash on a leg, RabbitMQ's boot)
# failed on a slower machine; bounded at 6 the suite takes the same 7 minutes and passes.
INTEGRATION_WIDTH ?= $(shell echo $$((3 * $$(nproc))))
test: deps web-map test-web
	$(OWN_TMP) $(SWIFT) build --build-tests
	QUAD_BIN_DIR="$(BIN_DIR)" QUAD_REPO_ROOT="$(CURDIR)" $(OWN_TMP) scripts/run-tests.sh --skip '^IntegrationTests\.'
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(INTEGRATION_WIDTH) QUAD_BIN_DIR="$(BIN_DIR)" \
		QUAD_REPO_ROOT="$(CURDIR)" $(OWN_TMP) scripts/run-tests.sh --filter '^IntegrationTests\.'

test-web: deps
	node --test Tests/WebMapTests/

# Leaflet (Debian libjs-leaflet) copied next to the live map's page, web/map/vendor/ (not committed).
web-map: deps
	@scripts/web-map-assets.sh

# The fault-injection suite (real flights with a broker, a service or the link killed, datagram loss, a fuzzed
# bus; a few minutes) and the 3-node RabbitMQ and NATS clusters (BrokerClusterTests): skipped by `make test`,
# run here with QUAD_FAULTS=1.
faults: deps
	$(OWN_TMP) $(SWIFT) build --build-tests
	QUAD_TEST_STALL_S=900 QUAD_FAULTS=1 QUAD_BIN_DIR="$(BIN_DIR)" QUAD_REPO_ROOT="$(CURDIR)" \
		$(OWN_TMP) scripts/run-tests.sh --filter "FaultInjection|FieldRehearsal|BrokerCluster"

# The real-autopilot scenarios (RealAutopilotTests, ~7 min): the product flying PX4 SIH and ArduCopter SITL from
# QUAD_AUTOPILOTS_DIR (default ../shared/autopilots), judged by an observer on each autopilot's second MAVLink link;
# and PX4ParityTests: one scenario on the real PX4 and on drone-sim, the same acks, modes and failsafe; and
# ArduPilotParityTests: a GUIDED takeoff cancelled by a setpoint on the real ArduCopter and on drone-sim (~70 s,
# beside the scenarios).
# Skipped by `make test`, run here with QUAD_AUTOPILOTS=1; without the autopilots it says loudly that they were NOT
# run, and they count as skipped.
.PHONY: autopilots
autopilots: deps
	$(OWN_TMP) $(SWIFT) build --build-tests
	QUAD_AUTOPILOTS=1 QUAD_BIN_DIR="$(BIN_DIR)" QUAD_REPO_ROOT="$(CURDIR)" \
		$(OWN_TMP) scripts/run-tests.sh --filter 'RealAutopilot|PX4Parity|ArduPilotParity'

# The board services (navigator, drone-controller, drone-link, mavlink-link, telemetry-logger) cross-built for aarch64
# Linux in release mode with Debian trixie's swiftlang 6.0.3, into .build-board/bin (scripts/board-build.sh; as root:
# it makes Debian roots with mmdebstrap the first time, ~3 min, and reuses them).
board:
	@scripts/board-build.sh

# Those aarch64 services flown under qemu-aarch64-static (arm64 root: .build-board/sysroot) against the host's
# mosquitto and drone-sim: takeoff, a 40 m target, arrival within 2 m, return, land, through each vehicle link
# (IntegrationTests' BoardEmulationTests, which FlightStack runs through QUAD_BOARD_RUNNER).
board-flight: board deps
	$(OWN_TMP) $(SWIFT) build --build-tests
	QUAD_BOARD_BIN_DIR="$(CURDIR)/.build-board/bin" \
		QUAD_BOARD_RUNNER="qemu-aarch64-static -L $(CURDIR)/.build-board/sysroot" \
		QUAD_BIN_DIR="$(BIN_DIR)" QUAD_REPO_ROOT="$(CURDIR)" $(OWN_TMP) scripts/run-tests.sh --filter 'BoardEmulation'

# The Debian packages, into .build-board/packages (scripts/packages.sh): quadcopter-board_<version>_arm64.deb (the
# board services from `make board`) and quadcopter-ground_<version>_amd64.deb (location-broadcaster, telemetry-logger
# from the release build, the live map). Their postinst runs the shipped deploy/<side>/install.sh --packaged.
# Version: ServiceRuntime.version+git<commits>.g<hash>. As root (make board's roots).
packages:
	@scripts/packages.sh

# Installs those packages in fresh Debian roots (ground: amd64 bookworm; board: arm64 trixie under
# qemu-aarch64-static) and checks them: systemd-analyze verify, the services online on the root's broker, the
# vehicle switch, upgrade (state, passwords, certificates kept), dpkg -r (services stopped, logs kept) and purge
# (scripts/packages-check.sh; roots cached under .build-board/roots/check-*). Makes the packages first, so it never
# checks stale ones.
packages-check: packages
	@scripts/packages-check.sh

# VEHICLE=mavlink: the same flight through mavlink-link and drone-sim's MAVLink face.
demo: deps
	@VEHICLE="$(VEHICLE)" $(OWN_TMP) scripts/demo.sh

# Figures, not pass/fail: builds release, runs the codec benchmark and quad-bench (a separate package in
# Benchmarks/, never built by `make test`) and rewrites BENCHMARKS.md above its hand-kept "Earlier runs" section.
# `make bench BENCH_FLAGS=--quick` is shorter.
bench:
	@scripts/bench.sh $(BENCH_FLAGS)

# Only the MAVLink command latency (target → first SET_POSITION_TARGET_LOCAL_NED): release build, then quad-bench
# mavlink-latency prints its rows; BENCHMARKS.md is not rewritten.
bench-mavlink:
	@scripts/bench.sh --mavlink-latency

# Only the field layout's command latency: deploy/'s ground and board brokers on 127.0.0.1 joined by the bridge as
# shipped, the AR.Drone stack on the board's, targets published on the ground's (target → first PCMD); release build,
# then quad-bench field-latency prints its rows; BENCHMARKS.md is not rewritten.
bench-field:
	@scripts/bench.sh --field-latency

# Only the board's footprint (issue 17): start-up (exec → retained online), RSS, PSS and CPU of each board service in
# a 30 Hz flight, free and with broker and services pinned to CPU 0, target → PCMD beside each; prints its rows.
bench-footprint:
	@scripts/bench.sh --footprint

# Only the fleet benchmark (issue 17): 5 real drones + N synthetic drones' telemetry on one Mosquitto, then on a
# 3-node RabbitMQ and a 3-node NATS cluster (smaller steps, ~8 min each; a row says "not run" when a broker is not
# installed), one logger recording all; the largest N with nothing lost and target → PCMD p99 ≤ 5 ms;
# prints its rows.
bench-fleet:
	@scripts/bench.sh --fleet

# Only the speed against the autopilot's own (issue 37 item 7): a 40 m target flown by the stack and by PX4's own goto
# at the same cruise speed on the real PX4 SIH, judged by PX4's own position (~12 min); prints its rows.
bench-autopilots: deps
	@scripts/bench-autopilots.sh

clean:
	rm -rf .build
