#!/usr/bin/env bash
# make demo: a simulated flight to a target ~50 m away, end to end, on this machine.
# Starts a private mosquitto (free port), drone-sim, drone-link, navigator, drone-controller and telemetry-logger;
# takes off, sends the target with mosquitto_pub, shows progress, hovers on arrival, lands, exports SVG + GPX.
# Stops every process it started (also on Ctrl-C). DEMO_CONFIG=debug skips the release build.
# VEHICLE=mavlink flies the same services against drone-sim's MAVLink (PX4-like) face through mavlink-link;
# VEHICLE=px4 or VEHICLE=ardupilot against a real autopilot's SITL: QUAD_PX4_START / QUAD_ARDUPILOT_START name its
# start script (default: ../shared/autopilots/px4/start.sh, ../shared/autopilots/arducopter/start.sh; the same
# arguments: px4 LAT LON ALT [INSTANCE], arducopter -H LAT,LON,ALT,HDG -0 HOST:PORT -d DIR).
set -euo pipefail
cd "$(dirname "$0")/.."

config=${DEMO_CONFIG:-release}
vehicle=${VEHICLE:-ardrone}
autopilots=${QUAD_AUTOPILOTS_DIR:-../shared/autopilots}
case $vehicle in
  ardrone) link=drone-link ;;
  mavlink) link=mavlink-link ;;
  px4) link=mavlink-link start_script=${QUAD_PX4_START:-$autopilots/px4/start.sh} ;;
  ardupilot) link=mavlink-link start_script=${QUAD_ARDUPILOT_START:-$autopilots/arducopter/start.sh} ;;
  *) echo "VEHICLE must be ardrone, mavlink, px4 or ardupilot, not '$vehicle'" >&2; exit 64 ;;
esac
if [[ -n ${start_script:-} && ! -x $start_script ]]; then
  echo "VEHICLE=$vehicle: no start script at $start_script (set QUAD_PX4_START / QUAD_ARDUPILOT_START)" >&2; exit 1
fi
drone=drone1
home_lat=52.5163 home_lon=13.3777          # Pariser Platz, Berlin
target_bearing_deg=60 target_distance_m=50
out="demo-output/$(date -u +%Y%m%d-%H%M%S)"

say() { printf '\033[1m%s\033[0m\n' "$*"; }
free_port() {
  python3 -c 'import socket,sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM if sys.argv[1] == "udp" else socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' "$1"
}

say "Building ($config)…"
# The build's log goes with the demo's other output, not into the system temporary directory.
mkdir -p "$out"
build_log="$out/build.log"
if [[ $config == release ]]; then
  scripts/swift-release.sh >"$build_log" 2>&1 || { tail -30 "$build_log"; exit 1; }
  bin=$(scripts/swift-release.sh --show-bin-path)
else
  swift build >"$build_log" 2>&1 || { tail -30 "$build_log"; exit 1; }
  bin=$(swift build --show-bin-path)
fi

broker_port=$(free_port tcp) ws_port=$(free_port tcp) at_port=$(free_port udp) navdata_port=$(free_port udp)
broker="127.0.0.1:$broker_port"
pids=()
cleanup() {
  local code=$?
  trap - EXIT INT TERM
  for ((i=${#pids[@]}-1; i>=0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  # PX4 leaves its daemon socket (/tmp/px4-sock-N) behind after SIGTERM: ours is instance 0's.
  [[ $vehicle == px4 ]] && rm -f "${TMPDIR:-/tmp}/px4-sock-0"
  exit "$code"
}
trap cleanup EXIT
trap 'echo; say "Interrupted: stopping everything."; exit 130' INT TERM

start() {  # start NAME ARGS… — runs in the background, output to $out/NAME.log
  local name=$1; shift
  "$@" >"$out/$name.log" 2>&1 &
  pids+=($!)
}

scripts/web-map-assets.sh   # Leaflet next to the live map's page (web/map), served by the websockets listener
sed -e "s/^listener 1883 127.0.0.1$/listener $broker_port 127.0.0.1/" \
    -e "s/^listener 9001 127.0.0.1$/listener $ws_port 127.0.0.1/" \
    -e "s#^http_dir web/map\$#http_dir $PWD/web/map#" mosquitto.conf >"$out/mosquitto.conf"
start mosquitto mosquitto -c "$out/mosquitto.conf"
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$broker_port") 2>/dev/null && break; sleep 0.1; done
map_url="http://127.0.0.1:$ws_port/"

if [[ $vehicle == px4 ]]; then
  # PX4 instance 0 sends its offboard link to 127.0.0.1:14540 (from UDP 14580): mavlink-link listens there.
  navdata_port=14540
  px4_dir=$(dirname "$start_script")
  if [[ -f $px4_dir/bin/px4-param && ! -L $px4_dir/bin/px4-param ]]; then
    # A copy whose px4-<module> links became 3-byte files ("px4") cannot start ("px4-param: Permission denied"):
    # run it from an overlay with real links, as the real-autopilot tests do (AutopilotSITL).
    overlay="$PWD/$out/px4-overlay"
    mkdir -p "$overlay/bin"
    ln -s "$(readlink -f "$px4_dir/etc")" "$overlay/etc"
    ln -s "$(readlink -f "$px4_dir/bin/px4")" "$overlay/bin/px4"
    for module in "$px4_dir"/bin/px4-*; do
      name=$(basename "$module")
      if [[ $(head -c 3 "$module") == px4 && $(stat -c %s "$module") == 3 ]]; then ln -s px4 "$overlay/bin/$name"
      else cp "$module" "$overlay/bin/$name"; fi
    done
    cp "$start_script" "$overlay/start.sh" && chmod 755 "$overlay/start.sh"
    start_script=$overlay/start.sh
  fi
  PX4_WORKDIR="$PWD/$out/px4" start px4 "$start_script" "$home_lat" "$home_lon" 34 0
elif [[ $vehicle == ardupilot ]]; then
  start arducopter "$start_script" -H "$home_lat,$home_lon,34,0" -0 "127.0.0.1:$navdata_port" -d "$PWD/$out/arducopter"
else
  if [[ $vehicle == mavlink ]]; then
    # The simulator's MAVLink port is $at_port; it sends telemetry to mavlink-link on $navdata_port.
    sim_ports=(--protocol mavlink --mavlink-port "$at_port" --gcs "127.0.0.1:$navdata_port")
  else
    sim_ports=(--at-port "$at_port" --navdata-port "$navdata_port")
  fi
  start drone-sim "$bin/drone-sim" --listen 127.0.0.1 "${sim_ports[@]}" \
    --home "$home_lat,$home_lon" --heading 0 --gps-noise 0.2 --seed 7 --trace "$out/ground-truth.csv"
fi
common=(--broker "$broker" --drone "$drone" --log-level warning)
if [[ $link == mavlink-link ]]; then
  start mavlink-link "$bin/mavlink-link" "${common[@]}" --listen "127.0.0.1:$navdata_port"
else
  start drone-link "$bin/drone-link" "${common[@]}" --address 127.0.0.1 --at-port "$at_port" \
    --navdata-port "$navdata_port"
fi
start navigator "$bin/navigator" "${common[@]}"
start drone-controller "$bin/drone-controller" "${common[@]}"
start telemetry-logger "$bin/telemetry-logger" record "${common[@]}" --dir "$out/logs"
lb() { "$bin/location-broadcaster" "$1" "${common[@]}" "${@:2}"; }  # lb SUBCOMMAND ARGS…

say "Private broker on $broker; simulated drone ($vehicle) on UDP $at_port/$navdata_port; logs in $out/"
say "Live map (watch the flight, click to send a target): $map_url"
wait_for() {  # wait_for TOPIC TEXT — until a (retained or live) message on TOPIC contains TEXT
  for _ in $(seq 60); do
    mosquitto_sub -h 127.0.0.1 -p "$broker_port" -t "$1" -C 1 -W 1 2>/dev/null | grep -q "$2" && return 0
  done
  echo "gave up waiting for $1"; return 1
}
for service in "$link" navigator drone-controller telemetry-logger; do
  wait_for "quad/$drone/status/$service" '"online"'
done
wait_for "quad/$drone/telemetry/drone" ''  # telemetry flows: the link talks to the (simulated) drone
echo "Services online: $link navigator drone-controller telemetry-logger (vehicle: $vehicle)"
if [[ $vehicle == ardupilot ]]; then
  # ArduCopter refuses to arm ("Need Position Estimate") until its EKF uses GPS, ~45 s after start.
  say "Waiting for ArduCopter's EKF to use GPS (~45 s after its start)…"
  for _ in $(seq 60); do grep -q "using GPS" "$out/arducopter/arducopter.log" 2>/dev/null && break; sleep 1; done
elif [[ $vehicle == px4 ]]; then
  sleep 5  # PX4 is ready (home position, pre-arm checks) ~5 s after its start
fi

pub=(mosquitto_pub -h 127.0.0.1 -p "$broker_port" -q 1)
say "Take off (then the controller climbs to its 3 m cruise altitude, also on the way; see alt):"
echo "  \$ ${pub[*]} -t quad/$drone/command -m takeoff"
# A real autopilot may still refuse to arm while it settles (the link logs its answer): ask again, a few times.
for try in 1 2 3 4; do
  "${pub[@]}" -t "quad/$drone/command" -m takeoff
  lb status --until hovering --timeout 30 --line && break
  [[ $vehicle == px4 || $vehicle == ardupilot ]] && (( try < 4 )) || exit 1
  say "Not airborne yet (see $out/mavlink-link.log); taking off again…"
done

read -r target_lat target_lon < <(python3 - "$home_lat" "$home_lon" "$target_bearing_deg" "$target_distance_m" <<'EOF'
import math, sys
lat, lon, brg, d = map(float, sys.argv[1:])
R = 6371008.8
p1, l1, t = math.radians(lat), math.radians(lon), math.radians(brg)
p2 = math.asin(math.sin(p1)*math.cos(d/R) + math.cos(p1)*math.sin(d/R)*math.cos(t))
l2 = l1 + math.atan2(math.sin(t)*math.sin(d/R)*math.cos(p1), math.cos(d/R) - math.sin(p1)*math.sin(p2))
print(f"{math.degrees(p2):.7f} {math.degrees(l2):.7f}")
EOF
)
say "Fly to a target ${target_distance_m} m away (bearing ${target_bearing_deg}°):"
echo "  \$ ${pub[*]} -t quad/$drone/target -m '{\"lat\":$target_lat,\"lon\":$target_lon}'"
"${pub[@]}" -t "quad/$drone/target" -m "{\"lat\":$target_lat,\"lon\":$target_lon}"
lb status --until arrived --timeout 120 --line
say "Arrived; hovering for 3 s."
sleep 3

say "Land:"
echo "  \$ ${pub[*]} -t quad/$drone/command -m land"
"${pub[@]}" -t "quad/$drone/command" -m land
lb status --until landed --timeout 30 --line

# Stop the logger first so its files are complete, then export.
logger_pid=${pids[${#pids[@]}-1]}  # started last
kill -TERM "$logger_pid"; wait "$logger_pid" 2>/dev/null || true
logs=("$out"/logs/*.qlog)
"$bin/telemetry-logger" export "${logs[@]}" --drone "$drone" --format svg --out "$out/flight.svg"
"$bin/telemetry-logger" export "${logs[@]}" --drone "$drone" --format gpx --out "$out/flight.gpx"
say "Done. The flight:"
echo "  plot:         $out/flight.svg"
echo "  GPX track:    $out/flight.gpx"
[[ -f $out/ground-truth.csv ]] && echo "  ground truth: $out/ground-truth.csv   (the simulator's own record)"
echo "  flight logs:  ${logs[*]}"
echo "  live map:     $map_url   (until this script ends)"
