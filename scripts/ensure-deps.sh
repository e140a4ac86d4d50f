#!/usr/bin/env bash
# Installs the system packages the build and the tests need, when they are missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
# --board: instead, what the board's cross-build, its emulated runs and its packages need (scripts/board-build.sh,
# scripts/packages.sh, scripts/packages-check.sh).
set -euo pipefail
board=false
[[ ${1:-} == --board ]] && board=true

# command-or-file : debian package
needs=(
  "mosquitto:mosquitto"
  "mosquitto_pub:mosquitto-clients"
  "/usr/include/mosquitto.h:libmosquitto-dev"
  "pkg-config:pkgconf"
  "gpsd:gpsd"
  "gpsfake:gpsd-clients"
  # The live map (web/map): its browser test, its JS codec tests, and the Leaflet it is served with.
  "chromium:chromium"
  "chromedriver:chromium-driver"
  "/usr/lib/python3/dist-packages/selenium:python3-selenium"
  "/usr/share/javascript/leaflet/leaflet.js:libjs-leaflet"
  "node:nodejs"
  # The map over https/wss: the browser test trusts the laptop's CA as a user does, in an NSS database.
  "certutil:libnss3-tools"
  "curl:curl"
  "xmllint:libxml2-utils"
  "rsvg-convert:librsvg2-bin"
  "systemd-analyze:systemd"
  "chronyd:chrony"
  # deploy/'s installers make the radio's CA and certificates (TLS by default), and the tests check them.
  "openssl:openssl"
  "python3:python3"
  # mavlink-link's serial transport is tested through a pseudo-terminal pair in front of a UDP peer.
  "socat:socat"
)
if $board; then
  needs=(
    "mmdebstrap:mmdebstrap"
    # mmdebstrap's check that the machine can run arm64 code (binfmt with qemu): it refuses a foreign root without
    # it ("install arch-test for foreign architecture support"), and it is only a Recommends of mmdebstrap.
    "arch-test:arch-test"
    "qemu-aarch64-static:qemu-user-static"
    "rsync:rsync"
    "file:file"
    "readelf:binutils"
    "unshare:util-linux"
    "dpkg-deb:dpkg"
    "llvm-strip:llvm"
    "openssl:openssl"
    "ip:iproute2"
  )
fi


missing=()
for pair in "${needs[@]}"; do
  what=${pair%%:*}; pkg=${pair##*:}
  if [[ $what == /* ]]; then [[ -e $what ]] && continue
  else command -v "$what" >/dev/null 2>&1 && continue
       [[ -x /usr/sbin/$what ]] && continue
  fi
  missing+=("$pkg")
done
# The MAVLink tests' Python venv needs the venv module (Debian ships it separately).
if ! $board && ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then missing+=("python3-venv"); fi

python_deps() {
  $board && return 0
  # pymavlink and mavsdk (pinned, from PyPI) into .build/python-venv: the MAVLink tests' independent oracles.
  "$(dirname "$0")/ensure-python-deps.sh" >/dev/null
}

if ((${#missing[@]} == 0)); then python_deps; exit 0; fi
echo "missing packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "installed: ${missing[*]}"
  python_deps
else
  echo "run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
