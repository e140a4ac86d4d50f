#!/usr/bin/env python3
"""MAVSDK (PyPI mavsdk 4.x, the native C++ library) flying drone-sim's MAVLink face: arm, takeoff, a few seconds
of offboard body velocity, land, reading position throughout. Exits 0 and prints `mavsdk: ok …` on success.

usage: gcs_mavsdk.py LISTEN_PORT   (drone-sim runs with --gcs 127.0.0.1:LISTEN_PORT)"""
import math
import sys
import time

from mavsdk.plugins.action import Action
from mavsdk.plugins.offboard import Offboard, VelocityBodyYawspeed
from mavsdk.plugins.telemetry import Telemetry

from mavsdk_support import ComponentType, Script

LISTEN_PORT = int(sys.argv[1])
script = Script("mavsdk")
fail, wait = script.fail, script.wait
sdk, system = script.autopilot(LISTEN_PORT, ComponentType.COMPANION_COMPUTER)
action, telemetry, offboard = Action(system), Telemetry(system), Offboard(system)
wait(lambda: not math.isnan(telemetry.position().latitude_deg), "a position", 10)
home = telemetry.position()

action.arm()
action.takeoff()
wait(lambda: telemetry.in_air() and telemetry.position().relative_altitude_m > 2.0, "in the air above 2 m", 20)

offboard.set_velocity_body(VelocityBodyYawspeed(0.0, 0.0, 0.0, 0.0))
offboard.start()
start = telemetry.position()
end = time.time() + 4
while time.time() < end:
    offboard.set_velocity_body(VelocityBodyYawspeed(1.0, 0.0, 0.0, 0.0))
    time.sleep(0.05)
moved_m = (telemetry.position().latitude_deg - start.latitude_deg) * 111_320
offboard.set_velocity_body(VelocityBodyYawspeed(0.0, 0.0, 0.0, 0.0))
offboard.stop()
if not 1.5 < moved_m < 5.5:
    fail(f"flew {moved_m:.2f} m north in 4 s of 1 m/s forward")

action.land()
wait(lambda: not telemetry.in_air(), "landed", 20)
wait(lambda: not telemetry.armed(), "disarmed", 10)
end_pos = telemetry.position()
print(f"mavsdk: ok, flew {moved_m:.2f} m north, landed at {end_pos.latitude_deg:.6f},{end_pos.longitude_deg:.6f} "
      f"(home {home.latitude_deg:.6f},{home.longitude_deg:.6f})", flush=True)
