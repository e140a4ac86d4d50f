#!/usr/bin/env python3
"""One scenario, flown the same way against the real ArduCopter SITL and against drone-sim --autopilot ardupilot,
for the parity test (issue 26): GUIDED, arm before the position estimate (refused, retried every 10 s), then once
the EKF uses GPS: GUIDED again, arm, NAV_TAKEOFF to 10 m above home, one zero-velocity setpoint (BODY_NED, as
mavlink-link sends them) once above 1 m — ArduCopter cancels its takeoff and stays there — 8 s watched, NAV_LAND,
down and disarmed. Prints one JSON line: the refused arms (result and STATUSTEXT), the scenario's acknowledgements,
the (custom mode, armed) sequence from HEARTBEAT, EXTENDED_SYS_STATE's landed states, the STATUSTEXTs that tell the
story, the altitude when the setpoint went out and 4 s and 8 s later. Exits 1 with `parity: FAILED …` when it
cannot be flown.

usage: parity_arducopter.py LISTEN_PORT   (the autopilot sends its MAVLink to 127.0.0.1:LISTEN_PORT)"""
import json
import os
import sys
import time

os.environ["MAVLINK20"] = "1"
from pymavlink import mavutil  # noqa: E402

LISTEN_PORT = int(sys.argv[1])
STORY = ("Arming motors", "Disarming motors")
TAKEOFF_M = 10.0
m = mavutil.mavlink_connection(f"udpin:127.0.0.1:{LISTEN_PORT}", source_system=245, source_component=191)
C = mavutil.mavlink
seen = {"sysid": None, "modes": [], "acks": [], "texts": [], "refusals": [], "ready": False, "landed": [],
        "alt": 0.0, "autopilot": None}
last_gcs_heartbeat = [0.0]
SCENARIO = (C.MAV_CMD_COMPONENT_ARM_DISARM, C.MAV_CMD_NAV_TAKEOFF, C.MAV_CMD_DO_SET_MODE, C.MAV_CMD_NAV_LAND)


def fail(reason):
    print(f"parity: FAILED: {reason}; seen {json.dumps(seen)}", flush=True)
    sys.exit(1)


def pump():
    if time.time() - last_gcs_heartbeat[0] >= 1:
        m.mav.heartbeat_send(C.MAV_TYPE_GCS, C.MAV_AUTOPILOT_INVALID, 0, 0, C.MAV_STATE_ACTIVE)
        last_gcs_heartbeat[0] = time.time()
    msg = m.recv_match(blocking=True, timeout=0.02)
    while msg is not None:
        t = msg.get_type()
        if t == "HEARTBEAT" and msg.get_srcComponent() == 1 and msg.autopilot != C.MAV_AUTOPILOT_INVALID:
            seen["sysid"] = msg.get_srcSystem()
            seen["autopilot"] = msg.autopilot
            mode = [msg.custom_mode, bool(msg.base_mode & C.MAV_MODE_FLAG_SAFETY_ARMED)]
            if not seen["modes"] or seen["modes"][-1] != mode:
                seen["modes"].append(mode)
        elif t == "COMMAND_ACK" and msg.command in SCENARIO:
            seen["acks"].append([msg.command, msg.result])
        elif t == "STATUSTEXT":
            text = msg.text.strip()
            if "is using GPS" in text:
                seen["ready"] = True
            if text.startswith("Arm: ") or text.startswith("PreArm: "):
                seen["texts"].append(text)
            elif text in STORY:
                seen["texts"].append(text)
        elif t == "EXTENDED_SYS_STATE":
            if not seen["landed"] or seen["landed"][-1] != msg.landed_state:
                seen["landed"].append(msg.landed_state)
        elif t == "GLOBAL_POSITION_INT":
            seen["alt"] = msg.relative_alt / 1000
        msg = m.recv_match(blocking=False)


def wait(cond, what, timeout, each=None):
    deadline = time.time() + timeout
    while time.time() < deadline:
        pump()
        if each:
            each()
        if cond():
            return
    fail(f"timed out waiting for {what}")


def command(cmd, params):
    params = list(params) + [0] * (7 - len(params))
    before = len(seen["acks"])
    m.mav.command_long_send(seen["sysid"], 1, cmd, 0, *params)
    wait(lambda: any(a[0] == cmd for a in seen["acks"][before:]), f"COMMAND_ACK for {cmd}", 5)
    return next(a[1] for a in seen["acks"][before:] if a[0] == cmd)


def armed():
    return bool(seen["modes"]) and seen["modes"][-1][1]


def sleep(seconds):
    end = time.time() + seconds
    wait(lambda: time.time() > end, f"{seconds} s", seconds + 1)


wait(lambda: seen["sysid"] is not None, "an autopilot HEARTBEAT", 60)
for message_id, interval_us in ((33, 200_000), (245, 200_000)):
    m.mav.command_long_send(seen["sysid"], 1, C.MAV_CMD_SET_MESSAGE_INTERVAL, 0, message_id, interval_us, 0, 0, 0, 0, 0)
sleep(1)
# Before the position estimate: arming in GUIDED is refused, with the reason in a STATUSTEXT (STABILIZE arms).
# ArduCopter goes back to its initial mode (STABILIZE) when its start-up completes: GUIDED before every try.
while not seen["ready"]:
    if not seen["modes"] or seen["modes"][-1][0] != 4:
        command(C.MAV_CMD_DO_SET_MODE, [C.MAV_MODE_FLAG_CUSTOM_MODE_ENABLED, 4])
    texts = len(seen["texts"])
    result = command(C.MAV_CMD_COMPONENT_ARM_DISARM, [1])
    sleep(0.5)
    seen["refusals"].append([result, seen["texts"][texts:]])
    if result == C.MAV_RESULT_ACCEPTED:
        fail("armed before the EKF used GPS")
    end = time.time() + 10
    wait(lambda: seen["ready"] or time.time() > end, "the position estimate", 11)
sleep(2)
seen["acks"] = []
seen["texts"] = []
seen["modes"] = seen["modes"][-1:]
seen["landed"] = seen["landed"][-1:]
command(C.MAV_CMD_DO_SET_MODE, [C.MAV_MODE_FLAG_CUSTOM_MODE_ENABLED, 4])
command(C.MAV_CMD_COMPONENT_ARM_DISARM, [1])
wait(armed, "an armed HEARTBEAT", 5)
command(C.MAV_CMD_NAV_TAKEOFF, [0, 0, 0, 0, 0, 0, TAKEOFF_M])
wait(lambda: seen["alt"] > 1.0, "above 1 m", 30)
at_setpoint = seen["alt"]
m.mav.set_position_target_local_ned_send(0, seen["sysid"], 1, C.MAV_FRAME_BODY_NED, 0b0000_0101_1100_0111,
                                         0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
sleep(4)
after_4s = seen["alt"]
sleep(4)
after_8s = seen["alt"]
command(C.MAV_CMD_NAV_LAND, [0, 0, 0, 0, 0, 0, 0])
wait(lambda: not armed(), "disarmed after NAV_LAND", 60)
sleep(1.5)
print(json.dumps({"refusals": [{"result": r, "texts": t} for r, t in seen["refusals"]],
                  "acks": [f"{cmd}:{result}" for cmd, result in seen["acks"]],
                  "modes": [f"{mode} {'armed' if on else 'disarmed'}" for mode, on in seen["modes"]],
                  "landed": seen["landed"], "texts": seen["texts"],
                  "alt_at_setpoint_m": at_setpoint, "alt_4s_m": after_4s, "alt_8s_m": after_8s}), flush=True)
