#!/usr/bin/env python3
"""Writes walk.nmea: 30 s of 1 Hz $GPRMC + $GPGGA for gpsfake and the GroundStation tests.

A walk east then north-east from 52.5163 N, 13.3777 E (Pariser Platz) at about 1.4 m/s, starting
2024-05-01 12:00:00 UTC. Seconds 12..16 (5 epochs) have no fix: GGA quality 0 and RMC status V with empty
position fields, as receivers send them. Deterministic: run it again and the file is byte-identical.

Usage: python3 make_walk_nmea.py [OUTPUT]   (default: walk.nmea next to this script)
"""
import math
import os
import sys

START_LAT, START_LON = 52.5163, 13.3777
SPEED_MPS = 1.4
EPOCHS = 30
NO_FIX = range(12, 17)
DATE = "010524"  # ddmmyy
EARTH_RADIUS_M = 6_371_008.8


def checksum(body: str) -> str:
    c = 0
    for ch in body.encode("ascii"):
        c ^= ch
    return f"{c:02X}"


def sentence(body: str) -> str:
    return f"${body}*{checksum(body)}\r\n"


def lat_field(lat: float) -> str:
    deg = int(abs(lat))
    minutes = (abs(lat) - deg) * 60
    return f"{deg:02d}{minutes:08.5f},{'N' if lat >= 0 else 'S'}"


def lon_field(lon: float) -> str:
    deg = int(abs(lon))
    minutes = (abs(lon) - deg) * 60
    return f"{deg:03d}{minutes:08.5f},{'E' if lon >= 0 else 'W'}"


def course_at(t: int) -> float:
    return 90.0 if t < 15 else 45.0  # east along the square, then north-east


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "walk.nmea")
    lat, lon = START_LAT, START_LON
    lines = []
    for t in range(EPOCHS):
        hhmmss = f"1200{t:02d}.00"
        course = course_at(t)
        if t in NO_FIX:
            lines.append(sentence(f"GPRMC,{hhmmss},V,,,,,,,{DATE},,,N"))
            lines.append(sentence(f"GPGGA,{hhmmss},,,,,0,00,99.99,,,,,,"))
        else:
            speed_kn = SPEED_MPS / 0.514444
            sats = 8 if t < 20 else 9
            alt_m = 34.0 + 0.1 * (t % 3)
            lines.append(sentence(
                f"GPRMC,{hhmmss},A,{lat_field(lat)},{lon_field(lon)},{speed_kn:.3f},{course:.2f},{DATE},,,A"))
            lines.append(sentence(
                f"GPGGA,{hhmmss},{lat_field(lat)},{lon_field(lon)},1,{sats:02d},0.9,{alt_m:.1f},M,44.6,M,,"))
        # The walker keeps moving during the outage; the position jumps when the fix returns.
        d = SPEED_MPS
        lat += math.degrees(d * math.cos(math.radians(course)) / EARTH_RADIUS_M)
        lon += math.degrees(d * math.sin(math.radians(course)) / (EARTH_RADIUS_M * math.cos(math.radians(lat))))
    with open(out, "w", newline="") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
