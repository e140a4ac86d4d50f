#!/usr/bin/env bash
# What `make bench` needs beyond `make test`'s packages: nothing else from apt today (package-benchmark's
# MallocInterposer trait brings its own interposer; jemalloc is not needed). Kept as the one place to add them.
set -euo pipefail
exec "$(dirname "$0")/ensure-deps.sh"
