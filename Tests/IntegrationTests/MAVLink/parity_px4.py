#!/usr/bin/env python3
"""One scenario, flown the same way against the real PX4 SITL and against drone-sim, for the parity test: wait for
HOME_POSITION and the pre-arm check bit, PARAM_SET MIS_TAKEOFF_ALT 4 (what MAVSDK's set_takeoff_altitude sends), arm,
NAV_TAKEOFF with a NaN altitude (so MIS_TAKEOFF_ALT), zero-velocity offboard setpoints, DO_SET_MODE OFFBOARD, then
the setpoints stop. Prints one JSON line: the acknowledgements, the (mode, armed) sequence from HEARTBEAT, the
STATUSTEXTs that tell the story, the altitude it held after the takeoff (2 s into hold), the delay from the last
setpoint to "Failsafe activated", and whether it ended disarmed on the ground. Exits 1 with `parity: FAILED …` when
the scenario cannot be flown.

usage: parity_px4.py LISTEN_PORT   (the autopilot sends its offboard link to 127.0.0.1:LISTEN_PORT)"""
import json
import os
import sys
import time

os.environ["MAVLINK20"] = "1"
from pymavlink import mavutil  # noqa: E402

LISTEN_PORT = int(sys.argv[1])
TAKEOFF_ALT_M = 4.0
STORY = ("Using default takeoff altitude: 4.0 m", "Failsafe activated", "Landing detected", "Disarmed by landing")
m = mavutil.mavlink_connection(f"udpin:127.0.0.1:{LISTEN_PORT}", source_system=245, source_component=191)
C = mavutil.mavlink
seen = {"sysid": None, "modes": [], "acks": [], "texts": [], "home": False, "prearm": False, "landed": None, "alt": 0.0,
        "takeoff_alt_param": None}
last_gcs_heartbeat = [0.0]


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
        if t == "HEARTBEAT" and msg.autopilot == C.MAV_AUTOPILOT_PX4:
            seen["sysid"] = msg.get_srcSystem()
            mode = [(msg.custom_mode >> 16) & 0xFF, (msg.custom_mode >> 24) & 0xFF,
                    bool(msg.base_mode & C.MAV_MODE_FLAG_SAFETY_ARMED)]
            if not seen["modes"] or seen["modes"][-1] != mode:
                seen["modes"].append(mode)
        elif t == "COMMAND_ACK":
            seen["acks"].append([msg.command, msg.result])
        elif t == "STATUSTEXT" and msg.text.strip() in STORY:
            seen["texts"].append([time.time(), msg.text.strip()])
        elif t == "HOME_POSITION":
            seen["home"] = True
        elif t == "SYS_STATUS":
            seen["prearm"] = bool(msg.onboard_control_sensors_health & C.MAV_SYS_STATUS_PREARM_CHECK)
        elif t == "EXTENDED_SYS_STATE":
            seen["landed"] = msg.landed_state
        elif t == "GLOBAL_POSITION_INT":
            seen["alt"] = msg.relative_alt / 1000
        elif t == "PARAM_VALUE" and msg.param_id == "MIS_TAKEOFF_ALT":
            seen["takeoff_alt_param"] = msg.param_value
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
    wait(lambda: any(a[0] == cmd for a in seen["acks"][before:]), f"COMMAND_ACK for {cmd}", 3)


def armed():
    return bool(seen["modes"]) and seen["modes"][-1][2]


last_setpoint = [0.0]


def stream():
    if time.time() - last_setpoint[0] >= 0.05:
        m.mav.set_position_target_local_ned_send(0, seen["sysid"], 1, C.MAV_FRAME_BODY_NED, 0b0000_0101_1100_0111,
                                                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        last_setpoint[0] = time.time()


# Ready to arm, as PX4 says it: HOME_POSITION and SYS_STATUS's pre-arm check bit.
wait(lambda: seen["sysid"] is not None and seen["home"] and seen["prearm"], "HOME_POSITION and pre-arm checks", 60)
m.mav.param_set_send(seen["sysid"], 1, b"MIS_TAKEOFF_ALT", TAKEOFF_ALT_M, C.MAV_PARAM_TYPE_REAL32)
wait(lambda: seen["takeoff_alt_param"] == TAKEOFF_ALT_M, "PARAM_VALUE MIS_TAKEOFF_ALT 4", 5)
command(C.MAV_CMD_COMPONENT_ARM_DISARM, [1])
wait(armed, "an armed HEARTBEAT", 5)
nan = float("nan")
command(C.MAV_CMD_NAV_TAKEOFF, [0, 0, 0, nan, nan, nan, nan])
wait(lambda: seen["landed"] == C.MAV_LANDED_STATE_IN_AIR and seen["alt"] > 2.0 and seen["modes"][-1][:2] == [4, 3],
     "in the air above 2 m and holding", 40)
end = time.time() + 2
wait(lambda: time.time() > end, "2 s of hold after the takeoff", 4)
takeoff_alt = seen["alt"]
end = time.time() + 1
wait(lambda: time.time() > end, "1 s of setpoints", 3, each=stream)
command(C.MAV_CMD_DO_SET_MODE, [1, 6, 0])
end = time.time() + 3
wait(lambda: time.time() > end, "3 s of offboard", 5, each=stream)
stopped = last_setpoint[0]
wait(lambda: not armed() and seen["landed"] == C.MAV_LANDED_STATE_ON_GROUND, "disarmed on the ground", 60)
failsafe = [t for t, text in seen["texts"] if text == "Failsafe activated"]
print(json.dumps({"acks": [f"{cmd}:{result}" for cmd, result in seen["acks"]],
                  "modes": [f"{main}/{sub} {'armed' if on else 'disarmed'}" for main, sub, on in seen["modes"]],
                  "texts": [text for _, text in seen["texts"]],
                  "takeoff_alt_m": takeoff_alt,
                  "failsafe_after_s": failsafe[0] - stopped if failsafe else None,
                  "disarmed_on_ground": True}), flush=True)
