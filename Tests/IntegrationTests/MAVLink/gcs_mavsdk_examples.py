#!/usr/bin/env python3
"""MAVSDK's own examples (PyPI mavsdk 4.x) as our test, against drone-sim's MAVLink face: wait until every health
flag is ok (SYS_STATUS bits, HOME_POSITION), read and set parameters (COM_OBL_RC_ACT, MIS_TAKEOFF_ALT via
set_takeoff_altitude(5), which the takeoff must climb to), battery voltage, then takeoff, goto_location 20 m east,
return_to_launch, which flies home, lands and disarms. Exits 0 and prints `mavsdk-examples: ok …` on success, then
`mavsdk-examples: final position LAT LON` (MAVSDK's position once disarmed, for the test to compare with the ground
truth); 1 with the reason otherwise.

usage: gcs_mavsdk_examples.py LISTEN_PORT   (drone-sim runs with --gcs 127.0.0.1:LISTEN_PORT)"""
import math
import sys
import time

from mavsdk.plugins.action import Action
from mavsdk.plugins.param import Param
from mavsdk.plugins.telemetry import Telemetry

from mavsdk_support import ComponentType, Script

LISTEN_PORT = int(sys.argv[1])
METRES_PER_DEG = 111_320
script = Script("mavsdk-examples")
fail, wait = script.fail, script.wait
def distance_m(a, b):
    north = (a.latitude_deg - b.latitude_deg) * METRES_PER_DEG
    east = (a.longitude_deg - b.longitude_deg) * METRES_PER_DEG * math.cos(math.radians(a.latitude_deg))
    return math.hypot(north, east)


sdk, system = script.autopilot(LISTEN_PORT, ComponentType.GROUND_STATION)
action, telemetry, param = Action(system), Telemetry(system), Param(system)

# MAVSDK's examples wait for this before arming.
wait(lambda: telemetry.health_all_ok(), f"health all ok ({telemetry.health()})", 15)
if param.get_param_int("COM_OBL_RC_ACT") != 0 or abs(param.get_param_float("COM_OF_LOSS_T") - 1) > 1e-6:
    fail("not PX4's default failsafe parameters")
action.set_takeoff_altitude(5.0)
if abs(action.get_takeoff_altitude() - 5.0) > 1e-6:
    fail(f"takeoff altitude {action.get_takeoff_altitude()} after setting 5.0")
battery = telemetry.battery()
if not 10 < battery.voltage_v < 13:
    fail(f"battery voltage {battery.voltage_v} V")
home = telemetry.home()

action.arm()
action.takeoff()
wait(lambda: telemetry.in_air() and telemetry.position().relative_altitude_m > 4.8, "in the air above 4.8 m", 20)
time.sleep(2)
if not 4.8 < telemetry.position().relative_altitude_m < 5.45:
    fail(f"climbed to {telemetry.position().relative_altitude_m:.2f} m, not MIS_TAKEOFF_ALT 5.0")

here = telemetry.position()
goal_lon = here.longitude_deg + 20 / (METRES_PER_DEG * math.cos(math.radians(here.latitude_deg)))
action.goto_location(here.latitude_deg, goal_lon, here.absolute_altitude_m, float("nan"))
goal = type(here)(here.latitude_deg, goal_lon, here.absolute_altitude_m, here.relative_altitude_m)
wait(lambda: distance_m(telemetry.position(), goal) < 1.5, "goto_location 20 m east", 30)

action.return_to_launch()
wait(lambda: not telemetry.in_air(), "landed after return_to_launch", 40)
wait(lambda: not telemetry.armed(), "disarmed after return_to_launch", 10)
off = distance_m(telemetry.position(), home)
if off > 2:
    fail(f"landed {off:.1f} m from home")
final = telemetry.position()
print(f"mavsdk-examples: ok, health ok, takeoff altitude 5.0, battery {battery.voltage_v:.2f} V, goto 20 m east, "
      f"returned and landed {off:.1f} m from home", flush=True)
print(f"mavsdk-examples: final position {final.latitude_deg:.8f} {final.longitude_deg:.8f}", flush=True)
