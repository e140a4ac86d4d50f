#!/usr/bin/env bash
# Installs the drone board side: navigator, drone-controller, drone-link, telemetry-logger (the complete flight
# log, answering the ground's sync requests), and the board's Mosquitto configuration
# (loopback listener, ACL, bridge to the ground). Run as root on the board (Raspberry Pi OS / Debian). Idempotent:
# existing env files and generated passwords are kept.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

SERVICES=(navigator drone-controller drone-link telemetry-logger)
HERE="$REPO_DIR/deploy/drone"
GROUND_ADDRESS=""
BRIDGE_PASSWORD_FILE=""

usage() {
    cat <<USAGE
usage: $0 [options]
$COMMON_USAGE
  --ground-address HOST[:PORT]   the ground laptop's broker for the bridge (default: keep ground.local:1883)
  --bridge-password-file FILE    the drone1-bridge password to log in to the ground broker (default: generate
                                 one into /etc/quadcopter/drone1-bridge.password; give that file to
                                 deploy/ground/install.sh --bridge-password-file)
USAGE
}

while [[ $# -gt 0 ]]; do
    case $1 in
        --dry-run) DRY_RUN=1; shift ;;
        --root) [[ $# -ge 2 ]] || die "--root needs a directory"; ROOT="${2%/}"; shift 2 ;;
        --prebuilt) [[ $# -ge 2 ]] || die "--prebuilt needs a directory"; PREBUILT="$2"; shift 2 ;;
        --ground-address) [[ $# -ge 2 ]] || die "--ground-address needs HOST[:PORT]"; GROUND_ADDRESS="$2"; shift 2 ;;
        --bridge-password-file)
            [[ $# -ge 2 ]] || die "--bridge-password-file needs a file"; BRIDGE_PASSWORD_FILE="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option $1" ;;
    esac
done

# The address ends up inside mosquitto.conf: accept only characters that cannot break out of the line.
[[ -z $GROUND_ADDRESS || $GROUND_ADDRESS =~ ^[A-Za-z0-9.:_-]+$ ]] || die "bad --ground-address: $GROUND_ADDRESS"
[[ $DRY_RUN -eq 1 || -n $ROOT || $(id -u) -eq 0 ]] || die "run as root (or use --root DIR / --dry-run)"
[[ -z $BRIDGE_PASSWORD_FILE ]] || check_password_file "$BRIDGE_PASSWORD_FILE"

install_services "${SERVICES[@]}"
ensure_broker_account monitor monitor root 0600

log "bridge credentials for the ground broker"
bridge_secret="$ROOT/etc/quadcopter/drone1-bridge.password"
if [[ -n $BRIDGE_PASSWORD_FILE ]]; then
    store_password_file "$BRIDGE_PASSWORD_FILE" drone1-bridge
elif [[ $DRY_RUN -eq 1 ]]; then
    printf '+ generate password into %s (mode 0600) unless it exists\n' "$bridge_secret"
elif [[ ! -s $bridge_secret ]]; then
    (umask 077 && generate_password >"$bridge_secret")
fi

log "broker configuration: loopback listener, ACL, bridge to the ground"
install_broker_file "$HERE/quadcopter.acl" "$ROOT/etc/mosquitto/conf.d/quadcopter.acl"
conf="$ROOT/etc/mosquitto/conf.d/quadcopter.conf"
# Re-running without --ground-address keeps the address an earlier run (or the operator) put in.
if [[ -z $GROUND_ADDRESS && -r $conf ]]; then
    GROUND_ADDRESS="$(sed -n 's/^address //p' "$conf" | head -n 1)"
fi
GROUND_ADDRESS="${GROUND_ADDRESS:-ground.local:1883}"
if [[ $DRY_RUN -eq 1 ]]; then
    printf '+ write %s from %s (address %s, remote_password from %s)\n' "$conf" "$HERE/mosquitto.conf" \
        "$GROUND_ADDRESS" "$bridge_secret"
else
    bridge_password="$(cat "$bridge_secret")"
    tmp="$(mktemp)"
    sed -e "s|^address .*|address $GROUND_ADDRESS|" -e "s|@BRIDGE_PASSWORD@|$bridge_password|" \
        "$HERE/mosquitto.conf" >"$tmp"
    install_broker_file "$tmp" "$conf"
    rm -f "$tmp"
fi

log "time sync from the ground laptop (chrony)"
chrony_tmp="$(mktemp)"
sed -e "s|^server ground.local |server ${GROUND_ADDRESS%%:*} |" "$HERE/chrony.conf" >"$chrony_tmp"
install_chrony_conf "$chrony_tmp"
rm -f "$chrony_tmp"

log "systemd units"
install_units "$HERE" "${SERVICES[@]}"
log "done. Edit /etc/quadcopter/*.env if needed, then: systemctl start ${SERVICES[*]}"
if [[ -z $BRIDGE_PASSWORD_FILE ]]; then
    log "The ground broker must know the bridge password: copy $bridge_secret to the laptop and run there"
    log "  deploy/ground/install.sh --bridge-password-file <copied file>"
fi
