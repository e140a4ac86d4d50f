#!/usr/bin/env bash
# Runs `swift test --skip-build "$@"` and fails unless swift-testing printed its summary: a test process that ends
# early with exit 0 (something called exit(0) in it — once a service watchdog armed inside a unit test) would
# otherwise look green with most suites never run.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if (( status != 0 )); then exit "$status"; fi
if ! grep -Eq "Test run with [0-9]+ tests? in [0-9]+ suites? passed" "$log"; then
  echo "run-tests: swift test exited 0 without the test run's summary: the test process ended early" >&2
  exit 1
fi
