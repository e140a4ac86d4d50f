#!/usr/bin/env python3
"""MAVSDK's mission example (PyPI mavsdk 4.x) as our test, against drone-sim's MAVLink face: upload two waypoints,
arm, start the mission from the ground (PX4 takes off first), follow mission_progress to the end, then
return_to_launch, which lands at home. Exits 0 and prints `mavsdk-mission: ok …` on success, 1 otherwise.

usage: gcs_mavsdk_mission.py LISTEN_PORT   (drone-sim runs with --gcs 127.0.0.1:LISTEN_PORT)"""
import math
import sys

from mavsdk.plugins.action import Action
from mavsdk.plugins.mission import Mission, MissionItem, MissionPlan
from mavsdk.plugins.telemetry import Telemetry

from mavsdk_support import ComponentType, Script

LISTEN_PORT = int(sys.argv[1])
METRES_PER_DEG = 111_320
script = Script("mavsdk-mission")
fail, wait = script.fail, script.wait

sdk, system = script.autopilot(LISTEN_PORT, ComponentType.GROUND_STATION)
action, mission, telemetry = Action(system), Mission(system), Telemetry(system)
wait(lambda: telemetry.health_all_ok(), "health all ok", 15)
home = telemetry.home()
east_deg = 1 / (METRES_PER_DEG * math.cos(math.radians(home.latitude_deg)))
north_deg = 1 / METRES_PER_DEG


def waypoint(north_m, east_m):
    return MissionItem(home.latitude_deg + north_m * north_deg, home.longitude_deg + east_m * east_deg, 2.5,
                       float("nan"), True, float("nan"), float("nan"), MissionItem.CameraAction.NONE, float("nan"),
                       float("nan"), 1.0, float("nan"), float("nan"), MissionItem.VehicleAction.NONE)


mission.upload_mission(MissionPlan([waypoint(0, 15), waypoint(15, 15)]))
action.arm()
mission.start_mission()
wait(lambda: mission.is_mission_finished(), f"the mission to finish ({mission.mission_progress()})", 60)
here = telemetry.position()
north_m = (here.latitude_deg - home.latitude_deg) / north_deg
east_m = (here.longitude_deg - home.longitude_deg) / east_deg
if math.hypot(north_m - 15, east_m - 15) > 2:
    fail(f"mission finished at {north_m:.1f} m north, {east_m:.1f} m east, not at the last waypoint (15, 15)")
action.return_to_launch()
wait(lambda: not telemetry.in_air(), "landed after return_to_launch", 40)
wait(lambda: not telemetry.armed(), "disarmed", 10)
print(f"mavsdk-mission: ok, 2 waypoints flown, finished at ({north_m:.1f}, {east_m:.1f}) m, returned home", flush=True)
