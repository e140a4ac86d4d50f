#!/usr/bin/env bash
# Installs the other MQTT brokers the compatibility suites run against, when they are missing:
# RabbitMQ (Debian 3.10, MQTT plugin) and NATS (Debian 2.9, MQTT over JetStream).
# The tests start their own nodes on their own ports and data dirs; the packages' system daemons are never used.
# Debian's rabbitmq-server postinst starts a system node (and epmd) through invoke-rc.d: while we install, a
# policy-rc.d that answers 101 ("action forbidden") keeps it from starting. An existing policy-rc.d is left as it was.
set -euo pipefail

missing=()
[[ -x /usr/lib/rabbitmq/bin/rabbitmq-server || -x /usr/sbin/rabbitmq-server ]] || missing+=("rabbitmq-server")
command -v nats-server >/dev/null 2>&1 || [[ -x /usr/sbin/nats-server ]] || missing+=("nats-server")
((${#missing[@]} == 0)) && exit 0

echo "missing packages: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
policy=/usr/sbin/policy-rc.d
ours=0
if [[ ! -e $policy ]]; then
  printf '%s\n' '#!/bin/sh' '# quad: ensure-broker-deps.sh keeps package daemons from starting while it installs' \
    'exit 101' >"$policy"
  chmod 755 "$policy"
  ours=1
fi
trap '((ours)) && rm -f "$policy"' EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "installed: ${missing[*]}"
