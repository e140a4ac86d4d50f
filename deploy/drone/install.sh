#!/usr/bin/env bash
# Installs the drone board side: navigator, drone-controller, the vehicle's link (drone-link for the AR.Drone, or
# mavlink-link for a PX4/ArduPilot autopilot), telemetry-logger (the complete flight log, answering the ground's
# sync requests), and the board's Mosquitto configuration (loopback listener, ACL, TLS bridge to the ground, trusting
# the laptop's CA). Run as root on the board (Raspberry Pi OS / Debian). Idempotent: existing env files, generated
# passwords, the vehicle, the drone id and the bridge address are kept.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

HERE="$REPO_DIR/deploy/drone"
GROUND_ADDRESS=""
BRIDGE_PASSWORD_FILE=""
CA_FILE=""
VEHICLE=""
SERIAL=""
BAUD=""
FLOW_CONTROL=0
MAVLINK_LISTEN=""
LINKS=(drone-link mavlink-link)   # one vehicle link per board, enabled alone

usage() {
    cat <<USAGE
usage: $0 [options]
$COMMON_USAGE
  --ground-address HOST[:PORT]   the ground laptop's broker for the bridge: a name (or address) in its
                                 certificate (ground install --radio-name), port 8883 (TLS; 1883 with
                                 --insecure-plain-radio) (default: keep the installed one, or ground.local)
  --ca-file FILE                 the laptop's /etc/quadcopter/quadcopter-ca.crt, copied from it: the only CA the
                                 bridge trusts (needed once; kept for later runs)
  --drone ID                     this drone's id: QUAD_DRONE, the bridged topics quad/ID/…, the bridge account
                                 ID-bridge (default: keep the installed one, or drone1)
  --bridge-password-file FILE    the ID-bridge password to log in to the ground broker: the laptop's
                                 /etc/quadcopter/ID-bridge.password (default: generate one into that file here;
                                 give it to deploy/ground/install.sh --bridge-password-file)
  --vehicle ardrone|mavlink      the vehicle's link: drone-link (AR.Drone 2.0) or mavlink-link (PX4/ArduPilot);
                                 only that one is enabled (default: keep the installed one, or ardrone)
  --serial DEVICE                mavlink: the autopilot's serial port, e.g. /dev/ttyAMA0 (TELEM2)
  --baud N                       mavlink: its baud rate (default 921600)
  --flow-control                 mavlink: RTS/CTS flow control on the serial port
  --mavlink-listen HOST:PORT     mavlink: UDP instead, where mavlink-router or the autopilot sends
                                 (default 0.0.0.0:14540)
USAGE
}

needs_value() { [[ $2 -ge 2 ]] || usage_error "$1 needs $3"; }
while [[ $# -gt 0 ]]; do
    if common_option "$@"; then shift "$SHIFT_BY"; continue; fi
    case $1 in
        --ground-address) needs_value "$1" $# "HOST[:PORT]"; GROUND_ADDRESS="$2"; shift 2 ;;
        --bridge-password-file) needs_value "$1" $# "a file"; BRIDGE_PASSWORD_FILE="$2"; shift 2 ;;
        --ca-file) needs_value "$1" $# "a file"; CA_FILE="$2"; shift 2 ;;
        --drone) needs_value "$1" $# "an id"; check_drone_id "$2"; DRONE_ID="$2"; shift 2 ;;
        --vehicle) needs_value "$1" $# "ardrone or mavlink"; VEHICLE="$2"; shift 2 ;;
        --serial) needs_value "$1" $# "a device"; SERIAL="$2"; shift 2 ;;
        --baud) needs_value "$1" $# "a baud rate"; BAUD="$2"; shift 2 ;;
        --flow-control) FLOW_CONTROL=1; shift ;;
        --mavlink-listen) needs_value "$1" $# "HOST:PORT"; MAVLINK_LISTEN="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; usage_error "unknown option $1" ;;
    esac
done

# Every value below ends up in mosquitto.conf, an env file or a unit: accept only what cannot break out of a line.
[[ -z $GROUND_ADDRESS || $GROUND_ADDRESS =~ ^[A-Za-z0-9.:_-]+$ ]] || usage_error "bad --ground-address: $GROUND_ADDRESS"
[[ -z $VEHICLE || $VEHICLE == ardrone || $VEHICLE == mavlink ]] \
    || usage_error "bad --vehicle: '$VEHICLE' (ardrone or mavlink)"
transport=""
if [[ -n $SERIAL || -n $BAUD || $FLOW_CONTROL -eq 1 || -n $MAVLINK_LISTEN ]]; then
    [[ $VEHICLE == mavlink ]] \
        || usage_error "--serial, --baud, --flow-control and --mavlink-listen need --vehicle mavlink"
    [[ -z $MAVLINK_LISTEN || (-z $SERIAL && -z $BAUD && $FLOW_CONTROL -eq 0) ]] \
        || usage_error "--mavlink-listen (UDP) excludes --serial, --baud and --flow-control"
    [[ -n $SERIAL || -n $MAVLINK_LISTEN ]] || usage_error "--baud and --flow-control need --serial DEVICE"
fi
# A serial device's path goes into the unit's drop-in (DeviceAllow=): a device under /dev and nothing else.
serial_path_ok() { [[ $1 =~ ^/dev/[A-Za-z0-9/_.:-]+$ && $1 != *..* ]]; }
if [[ -n $SERIAL ]]; then
    serial_path_ok "$SERIAL" \
        || usage_error "bad --serial: '$SERIAL' (a device under /dev, e.g. /dev/ttyAMA0 or /dev/serial/by-id/…)"
    [[ -z $BAUD || ($BAUD =~ ^[1-9][0-9]{2,6}$ && $BAUD -le 4000000) ]] \
        || usage_error "bad --baud: '$BAUD' (a rate such as 57600, 115200 or 921600)"
    transport="QUAD_SERIAL=$SERIAL"$'\n'"QUAD_BAUD=${BAUD:-921600}"
    [[ $FLOW_CONTROL -eq 0 ]] || transport+=$'\n'"QUAD_FLOW_CONTROL=1"
elif [[ -n $MAVLINK_LISTEN ]]; then
    [[ $MAVLINK_LISTEN =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}:([0-9]{1,5})$ ]] && ((BASH_REMATCH[2] >= 1 \
        && BASH_REMATCH[2] <= 65535)) || usage_error "bad --mavlink-listen: '$MAVLINK_LISTEN' (IPv4 HOST:PORT)"
    transport="QUAD_MAVLINK_LISTEN=$MAVLINK_LISTEN"
fi
require_root
[[ -z $BRIDGE_PASSWORD_FILE ]] || check_password_file "$BRIDGE_PASSWORD_FILE"
[[ -z $CA_FILE ]] || check_ca_file "$CA_FILE"
conf="$ROOT/etc/mosquitto/conf.d/quadcopter.conf"
# A re-run keeps what an earlier run (or the operator) chose: the drone id and the address from the bridge's
# configuration, the vehicle from the enabled link.
if [[ -z $DRONE_ID && -r $conf ]]; then
    DRONE_ID="$(sed -n 's/^remote_username \(.*\)-bridge$/\1/p' "$conf" | head -n 1)"
fi
DRONE_ID="${DRONE_ID:-drone1}"
if [[ -z $GROUND_ADDRESS && -r $conf ]]; then
    GROUND_ADDRESS="$(sed -n 's/^address //p' "$conf" | head -n 1)"
fi
GROUND_ADDRESS="${GROUND_ADDRESS:-ground.local}"
# An upgrade keeps a plain radio chosen earlier: the bridge went to the laptop's 1883 without a CA.
if [[ $RECONFIGURE -eq 1 && -z $CA_FILE && -r $conf ]] && grep -q '^address .*:1883$' "$conf" \
    && ! grep -q '^bridge_cafile ' "$conf"; then
    INSECURE_PLAIN_RADIO=1
fi
radio_port=8883
[[ $INSECURE_PLAIN_RADIO -eq 0 ]] || radio_port=1883
[[ $GROUND_ADDRESS == *:* ]] || GROUND_ADDRESS+=":$radio_port"
if [[ $INSECURE_PLAIN_RADIO -eq 0 ]]; then
    # The laptop's 1883 is loopback only: TLS to it cannot work, and plain to it is what TLS replaces.
    [[ ${GROUND_ADDRESS##*:} != 1883 ]] \
        || usage_error "the bridge address $GROUND_ADDRESS is the laptop's plain port:" \
        "give --ground-address HOST:8883 (TLS), or --insecure-plain-radio for plain MQTT over the radio"
    [[ -n $CA_FILE || -s $ROOT$BOARD_CA_CERT || $DRY_RUN -eq 1 ]] || usage_error "no CA for the TLS bridge:" \
        "copy /etc/quadcopter/quadcopter-ca.crt from the laptop and give --ca-file FILE" \
        "(or --insecure-plain-radio for plain MQTT over the radio)"
fi
if [[ -z $VEHICLE ]]; then
    VEHICLE=ardrone
    # -L: in a staging root the link points at the real /etc, where nothing may be.
    wants="$ROOT/etc/systemd/system/multi-user.target.wants/mavlink-link.service"
    [[ ! -L $wants && ! -e $wants ]] || VEHICLE=mavlink
fi
LINK=drone-link
[[ $VEHICLE == ardrone ]] || LINK=mavlink-link
SERVICES=(navigator drone-controller "$LINK" telemetry-logger)

install_services "${SERVICES[@]}"
ensure_broker_account monitor monitor root 0600
if [[ $LINK == mavlink-link ]]; then
    # The autopilot's transport from the options given (an existing env file keeps its own otherwise).
    [[ -z $transport ]] || ensure_env_file "$HERE/mavlink-link.env" mavlink-link "$transport"
    dropin="$ROOT/etc/systemd/system/mavlink-link.service.d/serial.conf"
    serial_device="$(sed -n 's/^QUAD_SERIAL=//p' "$ROOT/etc/quadcopter/mavlink-link.env" 2>/dev/null | tail -n 1)"
    [[ $DRY_RUN -eq 0 || -z $SERIAL ]] || serial_device="$SERIAL"
    [[ -z $serial_device ]] || serial_path_ok "$serial_device" \
        || die "QUAD_SERIAL=$serial_device in $ROOT/etc/quadcopter/mavlink-link.env is not a device under /dev"
    if [[ -n $serial_device ]]; then
        log "serial autopilot on $serial_device: the unit's drop-in opens that device to mavlink-link"
        run install -d -m 0755 "${dropin%/*}"
        if [[ $DRY_RUN -eq 1 ]]; then
            printf '+ write %s (DeviceAllow=%s rw)\n' "$dropin" "$serial_device"
        else
            sed -e "s|@SERIAL_DEVICE@|$serial_device|" "$HERE/mavlink-link.serial.conf" >"$dropin"
            chmod 0644 "$dropin"
        fi
    elif [[ -e $dropin ]]; then
        run rm -f "$dropin"
        run rmdir --ignore-fail-on-non-empty "${dropin%/*}"
    fi
fi
for other in "${LINKS[@]}"; do
    [[ $other != "$LINK" ]] || continue
    # Only one link may drive the vehicle: the other one's unit is disabled and its broker account removed.
    if [[ -e $ROOT/etc/systemd/system/$other.service ]]; then
        log "vehicle $VEHICLE: disabling $other"
        if staging; then
            run systemctl --root="$ROOT" disable "$other.service"
        else
            run systemctl disable --now "$other.service"
        fi
    fi
    if [[ $DRY_RUN -eq 0 ]] && grep -q "^$other:" "$ROOT$MOSQUITTO_PASSWD_FILE"; then
        mosquitto_passwd -D "$ROOT$MOSQUITTO_PASSWD_FILE" "$other"
    fi
done

log "bridge credentials for the ground broker"
bridge_secret="$ROOT/etc/quadcopter/$DRONE_ID-bridge.password"
if [[ -n $BRIDGE_PASSWORD_FILE ]]; then
    store_password_file "$BRIDGE_PASSWORD_FILE" "$DRONE_ID-bridge"
elif [[ $DRY_RUN -eq 1 ]]; then
    printf '+ generate password into %s (mode 0600) unless it exists\n' "$bridge_secret"
elif [[ ! -s $bridge_secret ]]; then
    (umask 077 && generate_password >"$bridge_secret")
fi

if [[ $INSECURE_PLAIN_RADIO -eq 1 ]]; then
    warn_plain_radio
else
    log "TLS to the ground: trusting only the laptop's CA"
    run install -d -m 0755 "$ROOT$CERT_DIR"
    if [[ -n $CA_FILE ]]; then
        run install -m 0644 "$CA_FILE" "$ROOT$BOARD_CA_CERT"
    else
        log "keeping the CA $ROOT$BOARD_CA_CERT"
    fi
    [[ $DRY_RUN -eq 1 ]] || log "its SHA-256 fingerprint $(fingerprint "$ROOT$BOARD_CA_CERT"): the laptop's install" \
        "printed the same"
fi

log "broker configuration: loopback listener, ACL, bridge to the ground ($GROUND_ADDRESS, drone $DRONE_ID)"
install_broker_file "$HERE/quadcopter.acl" "$ROOT/etc/mosquitto/conf.d/quadcopter.acl"
if [[ $DRY_RUN -eq 1 ]]; then
    printf '+ write %s from %s (address %s, remote_password from %s)\n' "$conf" "$HERE/mosquitto.conf" \
        "$GROUND_ADDRESS" "$bridge_secret"
else
    bridge_password="$(cat "$bridge_secret")"
    tmp="$(mktemp)"
    plain=()
    [[ $INSECURE_PLAIN_RADIO -eq 0 ]] || plain=(-e '/^bridge_cafile /d' -e '/^bridge_insecure /d' \
        -e '/^bridge_tls_version /d')
    sed -e "s|^address .*|address $GROUND_ADDRESS|" -e "s|@BRIDGE_PASSWORD@|$bridge_password|" \
        -e "s|^\(remote_[a-z]*\) drone1-bridge$|\1 $DRONE_ID-bridge|" \
        -e "s|^topic quad/drone1/|topic quad/$DRONE_ID/|" \
        ${plain[@]+"${plain[@]}"} "$HERE/mosquitto.conf" >"$tmp"
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
if [[ $LINK == mavlink-link ]]; then
    log "Set the autopilot's parameters for this link (docs/mavlink-vehicles.md, \"Installing on the board\")."
fi
if [[ -z $BRIDGE_PASSWORD_FILE ]]; then
    log "The ground broker must know the bridge password: copy $bridge_secret to the laptop and run there"
    log "  deploy/ground/install.sh --drone $DRONE_ID --bridge-password-file <copied file>"
fi
