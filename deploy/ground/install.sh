#!/usr/bin/env bash
# Installs the ground laptop side: location-broadcaster (CLI, plus a unit for follow mode), telemetry-logger, the
# ground Mosquitto configuration (authenticated listener for the drone bridge and local tools, ACL) and the live map
# (web/map + Leaflet, served by the broker's websockets listener). Run as root.
# Idempotent: existing env files and generated passwords are kept.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

SERVICES=(location-broadcaster telemetry-logger)
MAP_DIR=/usr/share/quadcopter/map   # the live map; http_dir in mosquitto.conf
HERE="$REPO_DIR/deploy/ground"
BRIDGE_USER=drone1-bridge
BRIDGE_PASSWORD_FILE=""
RADIO_SUBNETS=()

usage() {
    cat <<USAGE
usage: $0 [options]
$COMMON_USAGE
  --bridge-password-file FILE   the board's /etc/quadcopter/drone1-bridge.password (default: generate one here and
                                pass it to deploy/drone/install.sh --bridge-password-file)
  --radio-subnet CIDR           serve time (chrony) to the board on this network; repeatable (default: the
                                private ranges 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)
USAGE
}

while [[ $# -gt 0 ]]; do
    case $1 in
        --dry-run) DRY_RUN=1; shift ;;
        --root) [[ $# -ge 2 ]] || die "--root needs a directory"; ROOT="${2%/}"; shift 2 ;;
        --prebuilt) [[ $# -ge 2 ]] || die "--prebuilt needs a directory"; PREBUILT="$2"; shift 2 ;;
        --bridge-password-file)
            [[ $# -ge 2 ]] || die "--bridge-password-file needs a file"; BRIDGE_PASSWORD_FILE="$2"; shift 2 ;;
        --radio-subnet) [[ $# -ge 2 ]] || die "--radio-subnet needs a CIDR"; RADIO_SUBNETS+=("$2"); shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option $1" ;;
    esac
done
[[ $DRY_RUN -eq 1 || -n $ROOT || $(id -u) -eq 0 ]] || die "run as root (or use --root DIR / --dry-run)"
[[ -z $BRIDGE_PASSWORD_FILE ]] || check_password_file "$BRIDGE_PASSWORD_FILE"
# The subnet ends up inside chrony's configuration: accept only an address/prefix.
for subnet in ${RADIO_SUBNETS[@]+"${RADIO_SUBNETS[@]}"}; do
    [[ $subnet =~ ^[0-9A-Fa-f.:]+(/[0-9]{1,3})?$ ]] || die "bad --radio-subnet: $subnet"
done

install_services "${SERVICES[@]}"
# The board's bridge logs in with this account; both machines must hold the same password.
[[ -z $BRIDGE_PASSWORD_FILE ]] || store_password_file "$BRIDGE_PASSWORD_FILE" "$BRIDGE_USER"
ensure_broker_account "$BRIDGE_USER" "$BRIDGE_USER" root 0600
ensure_broker_account monitor monitor root 0600
# The live map logs in as `map` from the browser: the operator reads /etc/quadcopter/map.password (root only).
ensure_broker_account map map root 0600

log "live map page and Leaflet (libjs-leaflet) into $ROOT$MAP_DIR, served by the broker's websockets listener"
run "$REPO_DIR/scripts/web-map-assets.sh" "$ROOT$MAP_DIR"

log "broker configuration: authenticated listener, ACL"
install_broker_file "$HERE/quadcopter.acl" "$ROOT/etc/mosquitto/conf.d/quadcopter.acl"
install_broker_file "$HERE/mosquitto.conf" "$ROOT/etc/mosquitto/conf.d/quadcopter.conf"

log "time service for the board (chrony)"
chrony_tmp="$(mktemp)"
if ((${#RADIO_SUBNETS[@]} > 0)); then
    { grep -v '^allow ' "$HERE/chrony.conf"; printf 'allow %s\n' "${RADIO_SUBNETS[@]}"; } >"$chrony_tmp"
else
    cp "$HERE/chrony.conf" "$chrony_tmp"
fi
install_chrony_conf "$chrony_tmp"
rm -f "$chrony_tmp"

log "systemd units"
# ground-beacon runs `location-broadcaster beacon` under that service's user, env file and account.
install_units "$HERE" "${SERVICES[@]}" ground-beacon
log "done."
if [[ -z $BRIDGE_PASSWORD_FILE ]]; then
    log "Copy $ROOT/etc/quadcopter/$BRIDGE_USER.password to the board and run there:"
    log "  deploy/drone/install.sh --ground-address <this laptop>:1883 --bridge-password-file <copied file>"
fi
