#!/usr/bin/env bash
# Runs "$@" with TMPDIR a new directory of its own (inside the current TMPDIR, else /tmp) and removes that directory
# afterwards, keeping the command's exit status. `make test`, `make faults` and `make autopilots` run every swift
# invocation through it: SwiftPM (6.3) leaves three TemporaryDirectory.XXXXXX directories (each holding only a
# .keep-directory file) in TMPDIR each time it runs, even for `swift build --show-bin-path`, and the system's
# temporary directory is not ours to litter. The tests' own entries are checked before that by run-tests.sh.
set -uo pipefail
own=$(mktemp -d "${TMPDIR:-/tmp}/quad-run-XXXXXX") || exit 1
# As /tmp is (sticky, everyone may enter): mosquitto started as root drops to its own user and must reach the
# password and ACL files the tests write below it.
chmod 1777 "$own"
trap 'rm -rf "$own"' EXIT
trap 'exit 130' INT TERM
TMPDIR=$own "$@"
