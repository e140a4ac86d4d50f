#!/usr/bin/env bash
# `make bench-autopilots` (issue 37 item 7): the stack's speed against the autopilot's own on the real PX4 SIH and
# ArduCopter SITL of QUAD_AUTOPILOTS_DIR (default ../shared/autopilots), one after the other: a 40 m target flown by
# the stack (its default cruise, 5 m/s behind mavlink-link, and the article's 1 m/s) and by the autopilot's own goto
# (DO_REPOSITION at 5 m/s, 1 m/s and its default), and a 6-item plan flown by the board and by the autopilot's own
# mission mode, each judged by the autopilot's own position. Figures, not verdicts: IntegrationTests'
# AutopilotSpeedBench (its harness is the real-autopilot suite's) prints them as Markdown tables; the whole output
# goes to a log named at the end. QUAD_BENCH_AUTOPILOT=px4|arducopter runs only that autopilot's, QUAD_BENCH_ONLY=TEXT
# only the rows whose name contains TEXT, QUAD_BENCH_ROUNDS=N flies each N times (2); QUAD_BENCH_AUTOPILOTS_OUT=FILE
# also writes the tables there (make bench). Debug build: the flights take seconds, the services microseconds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
case "${QUAD_BENCH_AUTOPILOT:-}" in
  "") filter='AutopilotSpeedBench' ;;
  px4) filter='AutopilotSpeedBench/PX4' ;;
  arducopter) filter='AutopilotSpeedBench/ArduCopter' ;;
  *) echo "bench-autopilots: QUAD_BENCH_AUTOPILOT=$QUAD_BENCH_AUTOPILOT: px4 or arducopter" >&2; exit 64 ;;
esac
log=$(mktemp --suffix=-bench-autopilots.log)
scripts/with-own-tmp.sh swift build --build-tests
status=0
QUAD_BENCH_AUTOPILOTS=1 QUAD_BIN_DIR="$root/.build/debug" QUAD_REPO_ROOT="$root" \
  scripts/with-own-tmp.sh scripts/run-tests.sh --filter "$filter" > "$log" 2>&1 || status=$?
grep '^bench-autopilots: ' "$log" | sed 's/^bench-autopilots: //' \
  | tee "${QUAD_BENCH_AUTOPILOTS_OUT:-/dev/null}" || true
grep -q '^bench-autopilots-round: ' "$log" || echo "bench-autopilots: no figures (the autopilots missing?)"
echo "bench-autopilots: the run's output: $log (exit $status)"
exit "$status"
