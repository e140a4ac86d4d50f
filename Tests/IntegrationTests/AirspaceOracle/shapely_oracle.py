"""Point-in-polygon and distance to the edge, by shapely (GEOS), for AirspaceShapelyOracleTests.

Reads a JSON file: [{"rings": [[[east, north], ...], ...], "points": [[east, north], ...]}, ...] (ring 0 the outer
boundary, the rest holes; metres in the airspace's tangent plane). Prints one line per point: "<inside 0|1> <distance>".
"""
import json
import sys

from shapely.geometry import Point, Polygon

for case in json.load(open(sys.argv[1])):
    polygon = Polygon(case["rings"][0], case["rings"][1:])
    assert polygon.is_valid, case
    for east, north in case["points"]:
        point = Point(east, north)
        print(int(polygon.contains(point)), repr(polygon.boundary.distance(point)))
print("shapely-oracle: ok")
