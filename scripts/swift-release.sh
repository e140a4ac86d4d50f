#!/usr/bin/env bash
# The one release build of the services (make release, make demo, make bench, deploy/): the Swift runtime linked
# statically, and lld with packed relative relocations (DT_RELR, glibc ≥ 2.36: Debian bookworm, Raspberry Pi OS
# bookworm). RELR shrinks the executable's relocation table from ~1 MB to ~8 KB, which the loader no longer reads
# at every start: ~0.8 MB less RSS per service (BENCHMARKS.md "Footprint"). lld ships with the Swift toolchain.
# Arguments are passed on: --product NAME, --package-path DIR, --show-bin-path.
set -euo pipefail
exec swift build -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs "$@"
