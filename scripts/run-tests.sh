#!/usr/bin/env bash
# Runs `swift test --skip-build "$@"` and fails unless swift-testing printed its summary: a test process that ends
# early with exit 0 (something called exit(0) in it — once a service watchdog armed inside a unit test) would
# otherwise look green with most suites never run.
#
# A hang watchdog: a test process that goes QUAD_TEST_STALL_S (default 600) without a test starting or ending, or
# runs past QUAD_TEST_LIMIT_S (default 1800), is hung (one CI run sat silent for over an hour until CI's own limit
# killed it, with nothing to say where). The watchdog then prints the tests that started and never ended (from
# swift-testing's event stream), every thread's stack (gdb), the process tree, and kills the run: exit 124.
#
# Nothing left behind: what the run leaves running is named and stopped; what its test processes leave in the
# temporary directory (TMPDIR, else /tmp) fails the run, named, then removed. Every entry a test makes there is named
# quad-<what>-<pid of the test process>-… (TestEnvironment.temporaryDirectory and the Kit tests' helpers), so the
# check is exact: entries of this run's test processes (found by pid while it runs) that were not there before it.
set -uo pipefail
stall_s=${QUAD_TEST_STALL_S:-600}
limit_s=${QUAD_TEST_LIMIT_S:-1800}
work=$(mktemp -d)
log="$work/output.log"
events="$work/events.jsonl"
# QUAD_TEST_EVENTS=FILE keeps swift-testing's event stream (JSON lines: every test's start and end, with times).
trap '[[ -n "${QUAD_TEST_EVENTS:-}" && -f "$events" ]] && cp "$events" "$QUAD_TEST_EVENTS"; rm -rf "$work"' EXIT
runner=""
trap '[[ -n "$runner" ]] && pkill -TERM -s "$runner"; exit 130' INT TERM
tmp_root=${TMPDIR:-/tmp}
# drone-controller keeps its flight memory by default under the XDG state directory (~/.local/state): the tests'
# controllers keep theirs in this run's own, removed with it, never in the user's.
export XDG_STATE_HOME="$work/state"
mkdir -p "$XDG_STATE_HOME"
tmp_entries() { ls -A "$tmp_root" 2>/dev/null | LC_ALL=C sort; }
tmp_entries > "$work/tmp-before"

# Its own session, so that a hung run is killed with the brokers and services it started. Its output goes to a
# file, shown as it grows, never through a pipe: children that outlive a test process that died (a crash) would
# hold a pipe open, and `swift test | tee` then waited for them (CI's over-an-hour silence had that shape).
: > "$log"
setsid swift test --skip-build "$@" --event-stream-output-path "$events" --event-stream-version 0 \
  > "$log" 2>&1 < /dev/null &
runner=$!
tail -n +1 -f --pid="$runner" "$log" &
shower=$!

# The xctest process under `swift test` (the one whose threads say where a hang is).
test_process() { pgrep -f -s "$runner" 'PackageTests\.xctest' | head -1; }

# Every test process of the run (swift test starts one for XCTest, then one for swift-testing), by pid.
test_pids=""
note_test_pids() {
  local pid
  for pid in $(pgrep -f -s "$runner" 'PackageTests\.xctest'); do
    [[ " $test_pids " == *" $pid "* ]] || test_pids+=" $pid"
  done
}

# Entries of the run's test processes in the temporary directory that were not there before the run.
left_in_tmp() {
  local pids
  pids=$(echo $test_pids | tr ' ' '|')
  [[ -n "$pids" ]] || return 0
  tmp_entries | LC_ALL=C comm -13 "$work/tmp-before" - | grep -E "^quad-.*-($pids)-" \
    | { [[ "${QUAD_AUTOPILOT_KEEP:-}" == 1 ]] && grep -v '^quad-autopilot-' || cat; }
}

unfinished() {
  # Tests whose testStarted has no testEnded, by id (parameterised cases are counted under their test).
  python3 - "$events" <<'EOF'
import json, sys
started, ended = set(), set()
for line in open(sys.argv[1], errors="replace"):
    try:
        record = json.loads(line)
    except ValueError:
        continue
    if record.get("kind") != "event":
        continue
    event = record["payload"]
    test = event.get("testID")
    if not test:
        continue
    if event["kind"] == "testStarted":
        started.add(test)
    elif event["kind"] == "testEnded":
        ended.add(test)
for test in sorted(started - ended):
    print("  never ended:", test)
EOF
}

report_hang() {
  echo "run-tests: $1: the test run is hung; what it was doing:" >&2
  [[ -f "$events" ]] && unfinished >&2
  local pid
  pid=$(test_process)
  if [[ -n "$pid" ]] && command -v gdb >/dev/null; then
    echo "run-tests: threads of the test process $pid:" >&2
    timeout 120 gdb -p "$pid" -batch -nx -ex "set pagination off" -ex "thread apply all bt 25" 2>&1 \
      | grep -E '^(Thread|#)' >&2
  fi
  echo "run-tests: processes of the run:" >&2
  ps -o pid,ppid,etimes,stat,args -s "$runner" >&2 || true
  # By session, not group: swift test runs the test process in a process group of its own.
  pkill -TERM -s "$runner"
  sleep 5
  pkill -KILL -s "$runner"
}

started_s=$SECONDS
last_size=-1
last_change_s=$SECONDS
status=""
while kill -0 "$runner" 2>/dev/null; do
  # Five times a second: a short test process must be seen by pid too (note_test_pids).
  for _ in {1..25}; do note_test_pids; kill -0 "$runner" 2>/dev/null || break; sleep 0.2; done
  size=$(stat -c %s "$events" 2>/dev/null || echo 0)
  if (( size != last_size )); then last_size=$size; last_change_s=$SECONDS; fi
  if (( SECONDS - last_change_s >= stall_s )); then
    report_hang "no test started or ended for ${stall_s} s"; status=124; break
  fi
  if (( SECONDS - started_s >= limit_s )); then
    report_hang "still running after ${limit_s} s"; status=124; break
  fi
done
wait "$runner"
code=$?
status=${status:-$code}
wait "$shower"
# Whatever the run started and left behind is its own (the session): named, then stopped.
if pgrep -s "$runner" >/dev/null; then
  echo "run-tests: processes the test run left running (stopped now):" >&2
  ps -o pid,etimes,args -s "$runner" >&2 || true
  pkill -TERM -s "$runner"; sleep 2; pkill -KILL -s "$runner"
fi
left=$(left_in_tmp)
if [[ -n "$left" ]]; then
  echo "run-tests: the test run left these in $tmp_root (removed now):" >&2
  sed 's/^/  /' <<< "$left" >&2
  while IFS= read -r entry; do rm -rf -- "${tmp_root:?}/$entry"; done <<< "$left"
  (( status != 0 )) || status=1
fi
if (( status != 0 )); then
  if (( status != 124 )) && [[ -f "$events" ]] && ! grep -q '"kind":"runEnded"' "$events"; then
    echo "run-tests: the test process ended (exit $status) before its run did; the tests it was running:" >&2
    unfinished >&2
  fi
  exit "$status"
fi
if ! grep -Eq "Test run with [0-9]+ tests? in [0-9]+ suites? passed" "$log"; then
  echo "run-tests: swift test exited 0 without the test run's summary: the test process ended early" >&2
  [[ -f "$events" ]] && unfinished >&2
  exit 1
fi
