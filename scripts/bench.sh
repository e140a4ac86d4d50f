#!/usr/bin/env bash
# `make bench`: release build, the codec benchmark (package-benchmark), then quad-bench (latency, cadence,
# logger ingest, footprint, the board's footprint, the fleet on Mosquitto and on the RabbitMQ and NATS clusters)
# against the release binaries; writes BENCHMARKS.md; then, where the autopilots are, the speed against PX4's own.
# `--quick` shortens the runs; `--mavlink-latency` runs only the MAVLink command latency, `--field-latency` only the
# field layout's, `--footprint` only the board's footprint, `--fleet` only the fleet benchmark (these print their rows).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
quick=()
only_mavlink=0
only_field=0
only=
case ${1:-} in
  --quick) quick=(--quick) ;;
  # `make bench-mavlink`: only the MAVLink command latency (prints its rows, BENCHMARKS.md untouched).
  --mavlink-latency) only_mavlink=1 ;;
  # `make bench-field`: only target → PCMD through deploy/'s two brokers and the bridge (prints its rows).
  --field-latency) only_field=1 ;;
  # `make bench-footprint`: RSS, PSS, CPU and start-up of each board service, free and pinned to one core.
  --footprint) only=footprint ;;
  # `make bench-fleet`: 5 real drones + N synthetic ones on one Mosquitto, then on a 3-node RabbitMQ and a 3-node
  # NATS cluster; the largest lossless N on each.
  --fleet) only=fleet ;;
esac

scripts/ensure-bench-deps.sh
scripts/swift-release.sh
bin_dir=$(scripts/swift-release.sh --show-bin-path)

cd Benchmarks
swift build -c release --product quad-bench
if (( only_mavlink )); then
  exec .build/release/quad-bench mavlink-latency --bin-dir "$bin_dir" --repo-root "$root"
fi
if (( only_field )); then
  exec .build/release/quad-bench field-latency --bin-dir "$bin_dir" --repo-root "$root"
fi
if [[ -n $only ]]; then
  exec .build/release/quad-bench "$only" --bin-dir "$bin_dir" --repo-root "$root"
fi
codec_results=$(mktemp --suffix=.md)
trap 'rm -f "$codec_results"' EXIT
# --disable-sandbox: the plugin writes nothing outside .build, but the sandbox is unavailable in containers.
swift package --disable-sandbox benchmark --target Codec --format markdown --no-progress | tee "$codec_results"

command="make bench${quick:+ BENCH_FLAGS=--quick}"
.build/release/quad-bench run "${quick[@]}" --bin-dir "$bin_dir" --repo-root "$root" --out "$root/BENCHMARKS.md" \
  --codec-results "$codec_results" --command "$command"

# The speed against PX4's own (issue 37 item 7), where the autopilots are (`make bench-autopilots` alone): its table
# replaces the block between its markers in BENCHMARKS.md's hand-kept section (quad-bench keeps that section).
cd "$root"
if [[ -x "${QUAD_AUTOPILOTS_DIR:-$root/../shared/autopilots}/px4/start.sh" ]]; then
  table=$(mktemp --suffix=-bench-autopilots.md)
  QUAD_BENCH_AUTOPILOTS_OUT="$table" scripts/bench-autopilots.sh
  python3 - "$root/BENCHMARKS.md" "$table" <<'PY'
import sys
page, table = open(sys.argv[1]).read(), open(sys.argv[2]).read()
begin, end = "<!-- bench-autopilots:begin -->", "<!-- bench-autopilots:end -->"
if begin in page and end in page:
    head, rest = page.split(begin, 1)
    page = head + begin + "\n" + table + rest[rest.index(end):]
    open(sys.argv[1], "w").write(page)
else:
    print("BENCHMARKS.md has no bench-autopilots markers: the table is not written there")
PY
  rm -f "$table"
else
  echo "bench: the autopilots are not there: the speed against PX4's own (make bench-autopilots) not run"
fi
