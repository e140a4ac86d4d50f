#!/usr/bin/env python3
"""An independent observer on a real autopilot's second MAVLink link (pymavlink, not our codec): the oracle of the
real-autopilot scenarios. Prints one JSON object per observation on stdout, flushed at once:

  {"t": 12.34, "kind": "position", "lat": 52.5, "lon": 13.3, "rel_alt": 2.98, "alt": 36.9, "vn": 1.9, "ve": 0.1,
   "hdg": 87.5}                     GLOBAL_POSITION_INT (vn, ve: its ground velocity north, east, m/s; hdg: its heading,
                                    degrees, null when unknown)
  {"t": …, "kind": "heartbeat", "armed": true, "base_mode": 157, "custom_mode": 4}             on every change
  {"t": …, "kind": "landed", "state": 2}                 EXTENDED_SYS_STATE landed_state, on every change
  {"t": …, "kind": "statustext", "severity": 6, "text": "EKF3 IMU0 is using GPS"}
  {"t": …, "kind": "home", "lat": …, "lon": …, "alt": …}                          HOME_POSITION, on change
  {"t": …, "kind": "ekf", "flags": 831}                  EKF_STATUS_REPORT flags (ArduPilot), on change
  {"t": …, "kind": "prearm", "ok": true}                 SYS_STATUS pre-arm health bit (PX4), on change
  {"t": …, "kind": "ack", "command": 21, "result": 0}    COMMAND_ACK for what this observer sent
  {"t": …, "kind": "hello", "system": 1, "autopilot": 12, "from": "127.0.0.1:18570"}
  {"t": …, "kind": "mission_current", "seq": 2}         MISSION_CURRENT seq, on change
  {"t": …, "kind": "mission_reached", "seq": 2}         MISSION_ITEM_REACHED, every one

`t` is seconds on this machine's monotonic clock (time.monotonic: the same clock as CLOCK_MONOTONIC in Swift).
It says hello to the autopilot (a GCS HEARTBEAT every second) and asks for its streams with SET_MESSAGE_INTERVAL
(and REQUEST_DATA_STREAM for ArduPilot, which streams nothing on a link until asked); PX4's GCS link, which streams
50 Hz attitude and targets by default, is asked to stop those: the observer needs only what it reports.

SIGUSR1: send MAV_CMD_NAV_LAND (resent every second until acknowledged): a second ground station bringing the
vehicle down, for cleanup. SIGTERM ends it.

--commands FILE: JSON lines appended to FILE are acted on as they come (a second ground station, bypassing the stack):
  {"cmd": "fence"}   read the autopilot's fence (mission type 1) and report it:
                     {"t": …, "kind": "fence", "items": [[command, param1, lat_e7, lon_e7], …]}  (or "error": why)
  {"cmd": "goto", "lat": …, "lon": …, "alt": …, "speed": …}   MAV_CMD_DO_REPOSITION as COMMAND_INT (alt AMSL,
                     change mode; speed m/s, optional, -1 = the autopilot's default; to ArduPilot, which ignores it,
                     a DO_CHANGE_SPEED follows), resent every second until acknowledged; the ack is reported as
                     "ack" (command 192)
  {"cmd": "mission"} read the autopilot's mission (mission type 0) as the fence is read, and report it:
                     {"t": …, "kind": "mission", "items": [{"seq": 0, "command": 16, "frame": 3, "x": lat_e7,
                      "y": lon_e7, "z": 3.0, "param1": 0.0, "param2": 0.0, "param3": 0.0, "param4": 0.0}, …]}
                     (or "error": why). ArduPilot's item 0 is its home.
  {"cmd": "mission_mode"}  MAV_CMD_DO_SET_MODE to the autopilot's mission mode, as a ground station's mode switch:
                     PX4 custom main mode 4 (AUTO), sub mode 4 (MISSION); ArduCopter custom mode 3 (AUTO). Base
                     mode: custom mode enabled, the armed bit as the last HEARTBEAT had it (QGroundControl keeps
                     the vehicle's own bits). Resent every second until acknowledged; "ack" (command 176)

usage: autopilot_observer.py [--commands FILE] LISTEN_PORT [AUTOPILOT_HOST:PORT]
  LISTEN_PORT: the UDP port on 127.0.0.1 the autopilot's link sends to (0: any free port; then AUTOPILOT is needed).
  AUTOPILOT: where to send first (PX4's GCS link: 127.0.0.1:18570+N; PX4 then answers whoever sent to it).
  Without it the observer answers whoever sends to it (ArduPilot's udpclient serial port)."""
import json
import math
import os
import signal
import socket
import sys
import time

os.environ["MAVLINK20"] = "1"
from pymavlink import mavutil  # noqa: E402

C = mavutil.mavlink
ARGS = sys.argv[1:]
COMMANDS = None
if "--commands" in ARGS:
    at = ARGS.index("--commands")
    COMMANDS = ARGS[at + 1]
    del ARGS[at:at + 2]
LISTEN_PORT = int(ARGS[0])
AUTOPILOT = None
if len(ARGS) > 1:
    host, port = ARGS[1].rsplit(":", 1)
    AUTOPILOT = (host, int(port))

sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", LISTEN_PORT))
sock.setblocking(False)
mav = C.MAVLink(None, srcSystem=255, srcComponent=190)
mav.robust_parsing = True
peer = AUTOPILOT
target = {"system": 1, "component": 1, "ardupilot": False}
last = {}
land_requested = [False]
land_acked = [False]
running = [True]
# The list being read per mission type (0 mission, 1 fence): None when idle, else {"count": n or None, "items":
# [...], "tries": k, "next": time}.
list_reads = {0: None, 1: None}
LIST_KINDS = {0: "mission", 1: "fence"}
mode_switch = {"wanted": False, "acked": True, "next": 0.0}
goto = {"target": None, "acked": True, "next": 0.0}
commands_offset = [0]


def emit(kind, **fields):
    print(json.dumps({"t": round(time.monotonic(), 3), "kind": kind, **fields}), flush=True)


def changed(key, value):
    if last.get(key) == value:
        return False
    last[key] = value
    return True


def send(msg):
    if peer is None:
        return
    try:
        sock.sendto(msg.pack(mav), peer)
    except OSError:
        pass


def command(cmd, *params):
    params = list(params) + [0.0] * (7 - len(params))
    send(C.MAVLink_command_long_message(target["system"], target["component"], cmd, 0, *params))


def ask_streams():
    """What the observer reports, at the rates it needs; PX4's 50 Hz GCS extras off."""
    wanted = {C.MAVLINK_MSG_ID_GLOBAL_POSITION_INT: 100_000, C.MAVLINK_MSG_ID_EXTENDED_SYS_STATE: 200_000,
              C.MAVLINK_MSG_ID_HOME_POSITION: 1_000_000, C.MAVLINK_MSG_ID_SYS_STATUS: 1_000_000,
              C.MAVLINK_MSG_ID_MISSION_CURRENT: 1_000_000}
    if target["ardupilot"]:
        wanted[C.MAVLINK_MSG_ID_EKF_STATUS_REPORT] = 1_000_000
        # Position, extended status (SYS_STATUS, EKF) and "extra3" streams: ArduPilot starts a link silent.
        for stream, hz in ((C.MAV_DATA_STREAM_POSITION, 10), (C.MAV_DATA_STREAM_EXTENDED_STATUS, 2),
                           (C.MAV_DATA_STREAM_EXTRA3, 2)):
            send(C.MAVLink_request_data_stream_message(target["system"], target["component"], stream, hz, 1))
    else:
        for noisy in (C.MAVLINK_MSG_ID_POSITION_TARGET_LOCAL_NED, C.MAVLINK_MSG_ID_LOCAL_POSITION_NED,
                      C.MAVLINK_MSG_ID_ATTITUDE, C.MAVLINK_MSG_ID_ATTITUDE_QUATERNION,
                      C.MAVLINK_MSG_ID_ATTITUDE_TARGET, C.MAVLINK_MSG_ID_SERVO_OUTPUT_RAW,
                      C.MAVLINK_MSG_ID_RC_CHANNELS, C.MAVLINK_MSG_ID_OPTICAL_FLOW_RAD):
            command(C.MAV_CMD_SET_MESSAGE_INTERVAL, noisy, -1)
    for message, interval in wanted.items():
        command(C.MAV_CMD_SET_MESSAGE_INTERVAL, message, interval)


def list_request(mission_type, now):
    """Asks again for what the read of a mission type waits for (the count, or the next item); gives up after 10
    tries."""
    state = list_reads[mission_type]
    if state["tries"] >= 10:
        emit(LIST_KINDS[mission_type],
             error=f"no answer after 10 tries (count {state['count']}, {len(state['items'])} items)")
        list_reads[mission_type] = None
        return
    state["tries"] += 1
    state["next"] = now + 1
    if state["count"] is None:
        send(C.MAVLink_mission_request_list_message(target["system"], target["component"], mission_type))
    else:
        send(C.MAVLink_mission_request_int_message(target["system"], target["component"], len(state["items"]),
                                                   mission_type))


def list_item(msg, now):
    mission_type = getattr(msg, "mission_type", 0)
    state = list_reads.get(mission_type)
    if state is None or msg.target_system != 255:
        return
    if msg.get_type() == "MISSION_COUNT":
        if state["count"] is not None:
            return
        state["count"] = msg.count
    elif msg.seq == len(state["items"]) and state["count"] is not None:
        if mission_type == 1:
            state["items"].append([msg.command, msg.param1, msg.x, msg.y])
        else:
            # NaN (PX4 keeps a yaw of NaN) as null: json.dumps would write NaN, which is not JSON.
            def number(value):
                return None if math.isnan(value) else value
            state["items"].append({"seq": msg.seq, "command": msg.command, "frame": msg.frame, "x": msg.x,
                                   "y": msg.y, "z": number(msg.z), "param1": number(msg.param1),
                                   "param2": number(msg.param2), "param3": number(msg.param3),
                                   "param4": number(msg.param4)})
    else:
        return
    state["tries"] = 0
    if len(state["items"]) >= state["count"]:
        send(C.MAVLink_mission_ack_message(target["system"], target["component"], 0, mission_type))
        emit(LIST_KINDS[mission_type], items=state["items"])
        list_reads[mission_type] = None
    else:
        list_request(mission_type, now)


def read_commands(now):
    if COMMANDS is None:
        return
    try:
        with open(COMMANDS, "rb") as f:
            f.seek(commands_offset[0])
            data = f.read()
    except OSError:
        return
    end = data.rfind(b"\n")
    if end < 0:
        return
    commands_offset[0] += end + 1
    for line in data[:end].split(b"\n"):
        try:
            order = json.loads(line)
        except ValueError:
            continue
        if order.get("cmd") in ("fence", "mission"):
            mission_type = 1 if order["cmd"] == "fence" else 0
            list_reads[mission_type] = {"count": None, "items": [], "tries": 0, "next": now}
            list_request(mission_type, now)
        elif order.get("cmd") == "mission_mode":
            mode_switch["wanted"] = True
            mode_switch["acked"] = False
            mode_switch["next"] = now
        elif order.get("cmd") == "goto":
            goto["target"] = (order["lat"], order["lon"], order["alt"], float(order.get("speed", -1)))
            goto["acked"] = False
            goto["next"] = now


def send_goto():
    lat, lon, alt, speed = goto["target"]
    emit("sent", command=C.MAV_CMD_DO_REPOSITION)
    # param1: ground speed, m/s (-1: the autopilot's default cruise); param2 bit 0: switch to its guided mode.
    send(C.MAVLink_command_int_message(target["system"], target["component"], C.MAV_FRAME_GLOBAL,
                                       C.MAV_CMD_DO_REPOSITION, 0, 0, speed, 1, 0, float("nan"),
                                       int(round(lat * 1e7)), int(round(lon * 1e7)), alt))
    if target["ardupilot"] and speed > 0:
        # ArduCopter ignores param1 (its goto flew 7.7 m/s whatever was asked) and starting the goto resets its
        # speed to WPNAV_SPEED: the speed goes after it, as a ground station's DO_CHANGE_SPEED (ground speed).
        emit("sent", command=C.MAV_CMD_DO_CHANGE_SPEED)
        command(C.MAV_CMD_DO_CHANGE_SPEED, 1, speed, -1, 0)


def send_mission_mode():
    """DO_SET_MODE to AUTO (ArduCopter 3) or AUTO/MISSION (PX4 main 4, sub 4), the vehicle's armed bit kept."""
    armed = C.MAV_MODE_FLAG_SAFETY_ARMED if last.get("heartbeat", (False, 0))[0] else 0
    base = C.MAV_MODE_FLAG_CUSTOM_MODE_ENABLED | armed
    emit("sent", command=C.MAV_CMD_DO_SET_MODE)
    if target["ardupilot"]:
        command(C.MAV_CMD_DO_SET_MODE, base, 3)
    else:
        command(C.MAV_CMD_DO_SET_MODE, base, 4, 4)


def on_usr1(_signum, _frame):
    land_requested[0] = True
    land_acked[0] = False


def on_term(_signum, _frame):
    running[0] = False


signal.signal(signal.SIGUSR1, on_usr1)
signal.signal(signal.SIGTERM, on_term)


def handle(msg, source):
    global peer
    kind = msg.get_type()
    if kind == "BAD_DATA":
        return
    if kind == "HEARTBEAT":
        if msg.type == C.MAV_TYPE_GCS:
            return
        if peer is None or "system" not in last:
            peer = source
            target["system"], target["component"] = msg.get_srcSystem(), msg.get_srcComponent()
            target["ardupilot"] = msg.autopilot == C.MAV_AUTOPILOT_ARDUPILOTMEGA
            last["system"] = target["system"]
            emit("hello", system=target["system"], autopilot=msg.autopilot, **{"from": f"{source[0]}:{source[1]}"})
            ask_streams()
        if msg.get_srcSystem() != target["system"]:
            return
        armed = bool(msg.base_mode & C.MAV_MODE_FLAG_SAFETY_ARMED)
        if changed("heartbeat", (armed, msg.custom_mode)):
            emit("heartbeat", armed=armed, base_mode=msg.base_mode, custom_mode=msg.custom_mode,
                 system_status=msg.system_status)
        return
    if msg.get_srcSystem() != target["system"]:
        return
    if kind == "GLOBAL_POSITION_INT":
        emit("position", lat=msg.lat / 1e7, lon=msg.lon / 1e7, rel_alt=msg.relative_alt / 1000, alt=msg.alt / 1000,
             vn=msg.vx / 100, ve=msg.vy / 100, hdg=None if msg.hdg == 65535 else msg.hdg / 100)
    elif kind == "EXTENDED_SYS_STATE":
        if changed("landed", msg.landed_state):
            emit("landed", state=msg.landed_state)
    elif kind == "STATUSTEXT":
        emit("statustext", severity=msg.severity, text=msg.text)
    elif kind == "HOME_POSITION":
        home = (msg.latitude, msg.longitude, msg.altitude)
        if changed("home", home):
            emit("home", lat=msg.latitude / 1e7, lon=msg.longitude / 1e7, alt=msg.altitude / 1000)
    elif kind == "EKF_STATUS_REPORT":
        if changed("ekf", msg.flags):
            emit("ekf", flags=msg.flags)
    elif kind == "SYS_STATUS":
        # PX4 sets the pre-arm bit in the health field only (its first SYS_STATUS is all zeros).
        ok = bool(msg.onboard_control_sensors_health & C.MAV_SYS_STATUS_PREARM_CHECK)
        if changed("prearm", ok):
            emit("prearm", ok=ok)
    elif kind in ("MISSION_COUNT", "MISSION_ITEM_INT"):
        list_item(msg, time.monotonic())
    elif kind == "MISSION_CURRENT":
        if changed("mission_current", msg.seq):
            emit("mission_current", seq=msg.seq)
    elif kind == "MISSION_ITEM_REACHED":
        emit("mission_reached", seq=msg.seq)
    elif kind == "COMMAND_ACK":
        if msg.command == C.MAV_CMD_DO_REPOSITION:
            goto["acked"] = True
        if msg.command == C.MAV_CMD_DO_SET_MODE:
            mode_switch["acked"] = True
        if msg.command == C.MAV_CMD_NAV_LAND:
            land_acked[0] = msg.result in (C.MAV_RESULT_ACCEPTED, C.MAV_RESULT_IN_PROGRESS)
        if msg.command != C.MAV_CMD_SET_MESSAGE_INTERVAL:
            emit("ack", command=msg.command, result=msg.result)


next_hello = 0.0
next_land = 0.0
next_streams = time.monotonic() + 5
while running[0]:
    now = time.monotonic()
    if now >= next_hello:
        send(C.MAVLink_heartbeat_message(C.MAV_TYPE_GCS, C.MAV_AUTOPILOT_INVALID, 0, 0, 0, 3))
        next_hello = now + 1
    if now >= next_streams and "system" in last:
        ask_streams()  # once more: a request lost while the autopilot was still starting
        next_streams = float("inf")
    read_commands(now)
    for mission_type, state in list_reads.items():
        if state is not None and now >= state["next"]:
            list_request(mission_type, now)
    if mode_switch["wanted"] and not mode_switch["acked"] and now >= mode_switch["next"]:
        send_mission_mode()
        mode_switch["next"] = now + 1
    if goto["target"] is not None and not goto["acked"] and now >= goto["next"]:
        send_goto()
        goto["next"] = now + 1
    if land_requested[0] and not land_acked[0] and now >= next_land:
        emit("sent", command=C.MAV_CMD_NAV_LAND)
        command(C.MAV_CMD_NAV_LAND, 0, 0, 0, float("nan"), float("nan"), float("nan"), float("nan"))
        next_land = now + 1
    try:
        data, source = sock.recvfrom(65535)
    except BlockingIOError:
        time.sleep(0.01)
        continue
    except InterruptedError:
        continue
    for msg in mav.parse_buffer(data) or []:
        handle(msg, source)
