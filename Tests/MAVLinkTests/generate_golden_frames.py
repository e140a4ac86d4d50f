#!/usr/bin/env python3
"""Writes Fixtures/golden-frames.txt: frames packed by pymavlink (the MAVLink reference implementation), one per
line as `name hex`. Run once with scripts/ensure-python-deps.sh's venv; the output is committed and the Swift tests
decode and re-encode it byte for byte. The field values here are repeated in GoldenFrameTests.swift."""
import os
import struct
import sys

os.environ["MAVLINK20"] = "1"
from pymavlink.dialects.v10 import common as v1  # noqa: E402
from pymavlink.dialects.v20 import common as v2  # noqa: E402

NAN = float("nan")


def pack(dialect, msg, seq, sysid=1, compid=1):
    mav = dialect.MAVLink(None, srcSystem=sysid, srcComponent=compid)
    mav.seq = seq
    return bytes(msg.pack(mav))


def frames():
    c = v2
    yield "heartbeat_px4_offboard_armed", pack(c, c.MAVLink_heartbeat_message(
        type=2, autopilot=12, base_mode=128 | 1, custom_mode=6 << 16, system_status=4, mavlink_version=3), 7)
    yield "heartbeat_gcs", pack(c, c.MAVLink_heartbeat_message(
        type=6, autopilot=8, base_mode=0, custom_mode=0, system_status=4, mavlink_version=3), 0, 245, 191)
    yield "sys_status", pack(c, c.MAVLink_sys_status_message(
        onboard_control_sensors_present=0x1234, onboard_control_sensors_enabled=0x5678,
        onboard_control_sensors_health=0x9ABC, load=250, voltage_battery=12150, current_battery=830,
        drop_rate_comm=0, errors_comm=0, errors_count1=0, errors_count2=0, errors_count3=0, errors_count4=0,
        battery_remaining=76), 1)
    yield "battery_status", pack(c, c.MAVLink_battery_status_message(
        id=0, battery_function=0, type=3, temperature=2500, voltages=[4100, 4050, 4000] + [65535] * 7,
        current_battery=830, current_consumed=1200, energy_consumed=3000, battery_remaining=55,
        time_remaining=600, charge_state=1, voltages_ext=[0, 0, 0, 0], mode=0, fault_bitmask=0), 2)
    yield "global_position_int", pack(c, c.MAVLink_global_position_int_message(
        time_boot_ms=123456, lat=525163000, lon=133777000, alt=34500, relative_alt=2500, vx=-120, vy=45, vz=-3,
        hdg=27000), 3)
    yield "attitude", pack(c, c.MAVLink_attitude_message(
        time_boot_ms=1000, roll=0.1, pitch=-0.2, yaw=3.0, rollspeed=0.01, pitchspeed=-0.02, yawspeed=0.5), 4)
    yield "gps_raw_int", pack(c, c.MAVLink_gps_raw_int_message(
        time_usec=1700000000000000, fix_type=3, lat=525163000, lon=133777000, alt=34500, eph=80, epv=120, vel=150,
        cog=9000, satellites_visible=12, alt_ellipsoid=0, h_acc=300, v_acc=500, vel_acc=0, hdg_acc=0, yaw=0), 5)
    yield "extended_sys_state_in_air", pack(c, c.MAVLink_extended_sys_state_message(vtol_state=0, landed_state=2), 6)
    yield "command_long_arm", pack(c, c.MAVLink_command_long_message(
        target_system=1, target_component=1, command=400, confirmation=0, param1=1, param2=0, param3=0, param4=0,
        param5=0, param6=0, param7=0), 8, 245, 191)
    yield "command_long_do_set_mode_offboard", pack(c, c.MAVLink_command_long_message(
        target_system=1, target_component=1, command=176, confirmation=2, param1=1, param2=6, param3=0, param4=0,
        param5=0, param6=0, param7=0), 9, 245, 191)
    yield "command_long_takeoff_nan", pack(c, c.MAVLink_command_long_message(
        target_system=1, target_component=1, command=22, confirmation=0, param1=0, param2=0, param3=0, param4=NAN,
        param5=NAN, param6=NAN, param7=NAN), 10, 245, 191)
    yield "command_ack_accepted", pack(c, c.MAVLink_command_ack_message(
        command=400, result=0, progress=0, result_param2=0, target_system=245, target_component=191), 11)
    yield "command_ack_denied_short", pack(c, c.MAVLink_command_ack_message(
        command=22, result=2, progress=0, result_param2=0, target_system=0, target_component=0), 12)
    yield "set_position_target_body_velocity", pack(c, c.MAVLink_set_position_target_local_ned_message(
        time_boot_ms=5000, target_system=1, target_component=1, coordinate_frame=8, type_mask=1479, x=0, y=0, z=0,
        vx=1.5, vy=-0.5, vz=-0.25, afx=0, afy=0, afz=0, yaw=0, yaw_rate=0.3), 13, 245, 191)
    yield "param_request_read_by_name", pack(c, c.MAVLink_param_request_read_message(
        target_system=1, target_component=1, param_id=b"COM_OF_LOSS_T", param_index=-1), 14, 245, 191)
    yield "param_request_list", pack(c, c.MAVLink_param_request_list_message(target_system=1, target_component=1),
                                     15, 245, 191)
    # PX4 packs an INT32 bytewise in the float: COM_OBL_RC_ACT = 5 travels as the float with bit pattern 5.
    yield "param_value_int32_bytewise", pack(c, c.MAVLink_param_value_message(
        param_id=b"COM_OBL_RC_ACT", param_value=struct.unpack("<f", struct.pack("<i", 5))[0], param_type=6,
        param_count=5, param_index=1), 16)
    yield "param_value_real32_full_name", pack(c, c.MAVLink_param_value_message(
        param_id=b"MPC_XY_CRUISE_16", param_value=2.5, param_type=9, param_count=901, param_index=600), 17)
    yield "param_set_real32", pack(c, c.MAVLink_param_set_message(
        target_system=1, target_component=1, param_id=b"MIS_TAKEOFF_ALT", param_value=5.0, param_type=9), 18, 245, 191)
    yield "home_position", pack(c, c.MAVLink_home_position_message(
        latitude=525162949, longitude=133777019, altitude=34263, x=0, y=0, z=0, q=[1, 0, 0, 0], approach_x=0,
        approach_y=0, approach_z=0, time_usec=2208000), 19)
    yield "autopilot_version", pack(c, c.MAVLink_autopilot_version_message(
        capabilities=59647, flight_sw_version=0x010F00FF, middleware_sw_version=0, os_sw_version=0, board_version=1,
        flight_custom_version=[0, 0, 0, 18, 22, 68, 110, 91], middleware_custom_version=[0] * 8,
        os_custom_version=[0] * 8, vendor_id=0, product_id=0, uid=5283920058631409238, uid2=[7] + [0] * 17), 20)
    yield "statustext_failsafe", pack(c, c.MAVLink_statustext_message(
        severity=2, text=b"Failsafe activated", id=0, chunk_seq=0), 21)
    yield "command_int_do_reposition", pack(c, c.MAVLink_command_int_message(
        target_system=1, target_component=1, frame=5, command=192, current=0, autocontinue=0, param1=-1, param2=1,
        param3=0, param4=NAN, x=525163000, y=133780000, z=36.5), 22, 245, 191)
    yield "mission_count", pack(c, c.MAVLink_mission_count_message(
        target_system=1, target_component=1, count=2, mission_type=0), 23, 245, 191)
    yield "mission_request_int", pack(c, c.MAVLink_mission_request_int_message(
        target_system=245, target_component=191, seq=1, mission_type=0), 24)
    yield "mission_item_int_waypoint", pack(c, c.MAVLink_mission_item_int_message(
        target_system=1, target_component=1, seq=1, frame=6, command=16, current=0, autocontinue=1, param1=0,
        param2=1, param3=0, param4=NAN, x=525163000, y=133780000, z=2.5, mission_type=0), 25, 245, 191)
    yield "mission_ack_accepted", pack(c, c.MAVLink_mission_ack_message(
        target_system=245, target_component=191, type=0, mission_type=0), 26)
    yield "mission_current", pack(c, c.MAVLink_mission_current_message(
        seq=1, total=2, mission_state=3, mission_mode=0), 27)
    yield "mission_item_reached", pack(c, c.MAVLink_mission_item_reached_message(seq=1), 28)
    yield "mission_clear_all", pack(c, c.MAVLink_mission_clear_all_message(
        target_system=1, target_component=1, mission_type=0), 29, 245, 191)
    yield "local_position_ned", pack(c, c.MAVLink_local_position_ned_message(
        time_boot_ms=4200, x=12.5, y=-3.25, z=-5.0, vx=0.5, vy=-0.25, vz=0.125), 30)
    yield "set_position_target_local_position_yaw", pack(c, c.MAVLink_set_position_target_local_ned_message(
        time_boot_ms=6000, target_system=1, target_component=1, coordinate_frame=1, type_mask=2552, x=12.5, y=-3.25,
        z=-5.0, vx=0, vy=0, vz=0, afx=0, afy=0, afz=0, yaw=1.5, yaw_rate=0), 31, 245, 191)
    # MAVLink 1 framing of the same kinds of message (no extension fields, no truncation).
    yield "v1_heartbeat", pack(v1, v1.MAVLink_heartbeat_message(
        type=2, autopilot=12, base_mode=129, custom_mode=6 << 16, system_status=4, mavlink_version=3), 42)
    yield "v1_command_ack", pack(v1, v1.MAVLink_command_ack_message(command=400, result=2), 43)


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Fixtures", "golden-frames.txt")
    lines = ["# generated by generate_golden_frames.py with pymavlink; name hex"]
    for name, data in frames():
        lines.append(f"{name} {data.hex()}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines) - 1} frames to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
