#!/usr/bin/env bash
# Installs the Python tools the tests use as independent oracles (pymavlink for framing and CRC_EXTRA,
# MAVSDK with its bundled mavsdk_server for a real offboard client, shapely for the airspace geometry) into a private
# venv, pinned, from PyPI.
# Prints the venv's python on success. The tests find it at .build/python-venv/bin/python3.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${QUAD_PYTHON_VENV:-$root/.build/python-venv}"
pins=(pymavlink==2.4.50 mavsdk==4.1.0 shapely==2.2.0)

if [[ ! -x $venv/bin/python3 ]]; then
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python3" - "${pins[@]}" <<'PY' >/dev/null 2>&1
import sys
from importlib.metadata import version
for pin in sys.argv[1:]:
    name, wanted = pin.split("==")
    assert version(name) == wanted, pin
PY
then
  "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
fi
echo "$venv/bin/python3"
