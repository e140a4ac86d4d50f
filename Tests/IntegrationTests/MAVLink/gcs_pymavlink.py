#!/usr/bin/env python3
"""An independent ground station (pymavlink, strict CRC) flying drone-sim's MAVLink face as PX4 SITL behaves
(measured): arming refused before HOME_POSITION, takeoff refused while disarmed, the parameter protocol (PX4's
defaults COM_OF_LOSS_T 1 s and COM_OBL_RC_ACT 0, INT32 bytewise), arm, takeoff, offboard body-velocity setpoints;
then the setpoints stop: "Failsafe activated" after ~1 s, Position mode, which without RC descends, lands where it
is and disarms by itself. Exits 0 and prints `pymavlink-gcs: ok …` on success, 1 with the reason otherwise.

usage: gcs_pymavlink.py LISTEN_PORT SIM_PORT   (drone-sim runs with --gcs 127.0.0.1:LISTEN_PORT)"""
import os
import socket
import struct
import sys
import time

os.environ["MAVLINK20"] = "1"
from pymavlink import mavutil  # noqa: E402

LISTEN_PORT, SIM_PORT = int(sys.argv[1]), int(sys.argv[2])
m = mavutil.mavlink_connection(f"udpin:127.0.0.1:{LISTEN_PORT}", source_system=255, source_component=190)
mav = m.mav
mav.robust_parsing = False  # a bad CRC raises instead of being skipped
C = mavutil.mavlink
state = {"relative_alt": 0.0, "north": None, "start_north": None, "landed": None, "armed": False, "mode": None,
         "home": None, "texts": [], "params": {}}


def fail(reason):
    print(f"pymavlink-gcs: FAILED: {reason}", flush=True)
    sys.exit(1)


def pump(timeout=0.05):
    msg = m.recv_match(blocking=True, timeout=timeout)
    while msg is not None:
        t = msg.get_type()
        if t == "BAD_DATA":
            fail(f"bad data from the simulator: {msg}")
        if t == "HEARTBEAT" and msg.get_srcSystem() == 1:
            state["armed"] = bool(msg.base_mode & C.MAV_MODE_FLAG_SAFETY_ARMED)
            state["mode"] = (msg.custom_mode >> 16) & 0xFF, (msg.custom_mode >> 24) & 0xFF
        elif t == "GLOBAL_POSITION_INT":
            state["relative_alt"] = msg.relative_alt / 1000
            state["north"] = msg.lat / 1e7 * 111_320
        elif t == "EXTENDED_SYS_STATE":
            state["landed"] = msg.landed_state
        elif t == "HOME_POSITION":
            state["home"] = (msg.latitude / 1e7, msg.longitude / 1e7)
        elif t == "STATUSTEXT":
            state["texts"].append((time.time(), msg.text))
        elif t == "PARAM_VALUE":
            value = msg.param_value
            if msg.param_type == C.MAV_PARAM_TYPE_INT32:  # PX4: the INT32's bytes in the float
                value = struct.unpack("<i", struct.pack("<f", value))[0]
            state["params"][msg.param_id] = value
        yield msg
        msg = m.recv_match(blocking=False)


def wait(cond, what, timeout, each=None):
    deadline = time.time() + timeout
    while time.time() < deadline:
        for _ in pump():
            pass
        if each:
            each()
        if cond():
            return
    fail(f"timed out waiting for {what}; state {state}")


def command(cmd, params, expect):
    params = list(params) + [0] * (7 - len(params))
    for attempt in range(5):
        m.mav.command_long_send(1, 1, cmd, attempt, *params)
        deadline = time.time() + 0.5
        while time.time() < deadline:
            for msg in pump():
                if msg.get_type() == "COMMAND_ACK" and msg.command == cmd:
                    if msg.result != expect:
                        fail(f"MAV_CMD {cmd}: result {msg.result}, expected {expect}")
                    return
    fail(f"no COMMAND_ACK for MAV_CMD {cmd}")


def setpoint(vx):
    m.mav.set_position_target_local_ned_send(0, 1, 1, C.MAV_FRAME_BODY_NED, 0b0000_0101_1100_0111,
                                             0, 0, 0, vx, 0, 0, 0, 0, 0, 0, 0)


# The simulator sends to LISTEN_PORT; pymavlink answers whoever it heard from. Say hello first so it knows us.
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.sendto(b"\x00garbage-before-hello", ("127.0.0.1", SIM_PORT))  # must be counted and ignored, not crash it
hb = m.wait_heartbeat(timeout=10)
if hb is None:
    fail("no HEARTBEAT")
if hb.autopilot != C.MAV_AUTOPILOT_PX4 or hb.type != C.MAV_TYPE_QUADROTOR:
    fail(f"unexpected heartbeat {hb}")
m.mav.heartbeat_send(C.MAV_TYPE_GCS, C.MAV_AUTOPILOT_INVALID, 0, 0, 0)

command(C.MAV_CMD_NAV_TAKEOFF, [0, 0, 0, float("nan"), float("nan"), float("nan"), float("nan")], C.MAV_RESULT_DENIED)
command(C.MAV_CMD_SET_MESSAGE_INTERVAL, [C.MAVLINK_MSG_ID_GLOBAL_POSITION_INT, 50_000], C.MAV_RESULT_ACCEPTED)
for name in ("COM_OF_LOSS_T", "COM_OBL_RC_ACT"):
    m.mav.param_request_read_send(1, 1, name.encode(), -1)
wait(lambda: len(state["params"]) == 2, "PARAM_VALUE for COM_OF_LOSS_T and COM_OBL_RC_ACT", 3)
if state["params"] != {"COM_OF_LOSS_T": 1.0, "COM_OBL_RC_ACT": 0}:
    fail(f"not PX4's defaults: {state['params']}")
wait(lambda: state["home"] is not None, "HOME_POSITION (PX4 arms only with a position and home)", 10)
command(C.MAV_CMD_COMPONENT_ARM_DISARM, [1], C.MAV_RESULT_ACCEPTED)
wait(lambda: state["armed"], "armed heartbeat", 3)
command(C.MAV_CMD_NAV_TAKEOFF, [0, 0, 0, float("nan"), float("nan"), float("nan"), float("nan")], C.MAV_RESULT_ACCEPTED)
wait(lambda: state["landed"] == C.MAV_LANDED_STATE_IN_AIR and state["relative_alt"] > 2.0, "in the air above 2 m", 20)
command(C.MAV_CMD_DO_SET_MODE, [1, 6, 0], C.MAV_RESULT_DENIED)  # no setpoints streaming yet

last = [0.0]


def stream(vx):
    def send():
        if time.time() - last[0] >= 0.05:
            setpoint(vx)
            last[0] = time.time()
    return send


for _ in range(10):
    stream(1.0)()
    time.sleep(0.05)
command(C.MAV_CMD_DO_SET_MODE, [1, 6, 0], C.MAV_RESULT_ACCEPTED)
state["start_north"] = state["north"]
end = time.time() + 4
wait(lambda: time.time() > end, "4 s of offboard flight", 6, each=stream(1.0))
moved = state["north"] - state["start_north"]
if not 2.0 < moved < 5.5:
    fail(f"flew {moved:.2f} m north in 4 s at 1 m/s forward")
if state["mode"] != (6, 0):
    fail(f"not in offboard while streaming: {state['mode']}")
stopped = time.time()
stop_north = state["north"]
wait(lambda: state["mode"] == (3, 0), "Position mode (the failsafe) after the setpoints stopped", 3)
failsafe = [t for t, text in state["texts"] if text == "Failsafe activated"]
if not failsafe or not 0.8 < failsafe[0] - stopped < 1.6:
    fail(f"no 'Failsafe activated' about 1 s after the last setpoint: {state['texts']}")
wait(lambda: state["landed"] == C.MAV_LANDED_STATE_ON_GROUND and not state["armed"], "landed and disarmed", 15)
if abs(state["north"] - stop_north) > 4:
    fail(f"landed {state['north'] - stop_north:.1f} m from where the setpoints stopped")
if mav.total_receive_errors != 0:
    fail(f"{mav.total_receive_errors} receive errors")
print(f"pymavlink-gcs: ok, flew {moved:.2f} m north, {mav.total_packets_received} packets, 0 CRC errors", flush=True)
