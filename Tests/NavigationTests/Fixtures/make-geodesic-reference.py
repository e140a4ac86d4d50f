#!/usr/bin/env python3
"""Generates geodesic-reference.csv, the WGS-84 reference table for GeodesyTests.

Needs Karney's reference implementation: `pip install geographiclib` (tested with 2.1).
NOT run by the tests: the CSV is committed; rerun this only to regenerate it:

    python3 make-geodesic-reference.py > geodesic-reference.csv

Each row is one geodesic. lat2/lon2 come from Geodesic.Direct(lat1, lon1, azi, dist) (or are given
explicitly for special pairs); s12_m, azi1_deg, azi2_deg then come from Geodesic.Inverse on the stored
coordinates, so every row is a consistent inverse problem AND a direct problem (lat1, lon1, azi1, s12 ->
lat2, lon2). Azimuths are GeographicLib's (-180, 180]; azi2 is the forward azimuth at point 2.
Numbers are printed with repr(), i.e. round-trip exact doubles.
"""
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84
rows = []


def add(case, lat1, lon1, lat2, lon2):
    inv = G.Inverse(lat1, lon1, lat2, lon2)
    rows.append((case, lat1, lon1, lat2, lon2, inv["s12"], inv["azi1"], inv["azi2"]))


def add_direct(case, lat1, lon1, azi, dist):
    d = G.Direct(lat1, lon1, azi, dist)
    add(case, lat1, lon1, d["lat2"], d["lon2"])


# Short geodesics (0.1 m .. 20 km) across latitudes, three azimuths per (latitude, distance).
starts = [
    ("equator", 0.0, 13.4),
    ("mid-north", 52.5, 13.4),
    ("sixty-north", 60.0, 10.75),
    ("eighty-five-north", 85.0, -122.3),
    ("southern", -33.9, 151.2),
    ("sixty-south", -60.0, -45.5),
    ("eighty-five-south", -85.0, 70.25),
    ("tropic", 23.4, -99.1),
]
azimuth_cycle = [0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0, 17.3, 263.9, 101.1, -30.0]
distances = [0.1, 1.0, 100.0, 1000.0, 20000.0]
i = 0
for name, lat, lon in starts:
    for dist in distances:
        for _ in range(3):
            azi = azimuth_cycle[i % len(azimuth_cycle)]
            i += 1
            add_direct(f"{name} {dist:g}m", lat, lon, azi, dist)

# Across the antimeridian (both directions, several latitudes).
for lat in [0.0, 60.0, -45.0, 85.0]:
    add_direct("antimeridian east", lat, 179.99995, 90.0, 100.0)
    add_direct("antimeridian east", lat, 179.9, 80.0, 20000.0)
    add_direct("antimeridian west", lat, -179.99999, 270.0, 1.0)
    add_direct("antimeridian west", lat, -179.95, 250.0, 20000.0)

# Near and at the poles.
add_direct("near north pole", 89.9999, 0.0, 0.0, 100.0)          # crosses the pole
add_direct("near north pole", 89.99, 45.0, 30.0, 20000.0)
add_direct("near south pole", -89.9999, 120.0, 180.0, 50.0)
add("north pole start", 90.0, 0.0, 89.9, 30.0)
add("south pole start", -90.0, 0.0, -89.82, -170.0)
add("pole to pole", 90.0, 0.0, -90.0, 0.0)
add("north pole to equator", 90.0, 0.0, 0.0, 100.0)

# Coincident points.
add("coincident", 52.5, 13.4, 52.5, 13.4)
add("coincident equator", 0.0, 0.0, 0.0, 0.0)

# Long geodesics, including nearly antipodal ones (where Vincenty fails).
add("wellington-salamanca", -41.32, 174.81, 40.96, -5.50)
add("berlin-sydney", 52.52, 13.405, -33.8688, 151.2093)
add("equatorial antipodal", 0.0, 0.0, 0.0, 180.0)
add("equatorial nearly antipodal", 0.0, 0.0, 0.5, 179.7)
add("nearly antipodal", 30.0, 0.0, -30.0, 179.8)
add("nearly antipodal", 45.0, 10.0, -44.99, -170.01)
add("nearly antipodal", -20.0, -60.0, 19.999, 119.9995)
add("equator long", 0.0, -30.0, 0.0, 120.0)
add("meridian long", -60.0, 45.0, 70.0, 45.0)
add_direct("thousand km", 48.85, 2.35, 110.0, 1_000_000.0)
add_direct("ten thousand km", -12.0, -77.0, 33.0, 10_000_000.0)

print("case,lat1_deg,lon1_deg,lat2_deg,lon2_deg,s12_m,azi1_deg,azi2_deg")
for r in rows:
    print(",".join([r[0]] + [repr(float(x)) for x in r[1:]]))
