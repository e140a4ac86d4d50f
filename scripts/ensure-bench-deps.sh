#!/usr/bin/env bash
# What `make bench` needs beyond `make test`'s packages: RabbitMQ and NATS for the fleet benchmark's clusters
# (scripts/ensure-broker-deps.sh, the same packages `make deps` installs). Without them the bench still runs: the
# fleet's cluster rows then say "not run: … not installed". package-benchmark's MallocInterposer trait brings its own
# interposer; jemalloc is not needed. Kept as the one place to add what the bench needs.
set -euo pipefail
"$(dirname "$0")/ensure-deps.sh"
if ! "$(dirname "$0")/ensure-broker-deps.sh"; then
  echo "ensure-bench-deps: RabbitMQ or NATS missing: the fleet benchmark's cluster rows will say not run" >&2
fi
