#!/usr/bin/env bash
# Installs the ground laptop side: location-broadcaster (CLI, plus a unit for follow mode), telemetry-logger, the
# ground Mosquitto configuration (TLS listener for the drones' bridges, loopback listener for local tools, ACL with
# one bridge account per drone), the radio's CA and the broker's certificate, and the live map (web/map + Leaflet,
# served by the broker's websockets listener). Run as root.
# Idempotent: existing env files, generated passwords and the CA are kept.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"

SERVICES=(location-broadcaster telemetry-logger)
MAP_DIR=/usr/share/quadcopter/map   # the live map; http_dir in mosquitto.conf
HERE="$REPO_DIR/deploy/ground"
BRIDGE_PASSWORD_FILE=""
RADIO_SUBNETS=()
DRONES=()
RADIO_NAMES=()

usage() {
    cat <<USAGE
usage: $0 [options]
$COMMON_USAGE
  --drone ID                    a drone whose board bridges to this laptop (account ID-bridge, allowed only
                                quad/ID/…); repeatable, added to those installed before (default: drone1)
  --bridge-password-file FILE   the board's /etc/quadcopter/<ID>-bridge.password, for the one --drone given
                                (default: generate one here and pass it to deploy/drone/install.sh)
  --radio-name NAME             a host name or address the boards reach this laptop by, put into the broker's
                                TLS certificate; repeatable (default: this host's name and NAME.local; localhost
                                and 127.0.0.1 always). Given again, the certificate is issued anew.
  --radio-subnet CIDR           serve time (chrony) to the board on this network; repeatable (default: the
                                private ranges 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)
USAGE
}

while [[ $# -gt 0 ]]; do
    if common_option "$@"; then shift "$SHIFT_BY"; continue; fi
    case $1 in
        --drone) [[ $# -ge 2 ]] || usage_error "--drone needs an id"; check_drone_id "$2"; DRONES+=("$2"); shift 2 ;;
        --bridge-password-file)
            [[ $# -ge 2 ]] || usage_error "--bridge-password-file needs a file"; BRIDGE_PASSWORD_FILE="$2"; shift 2 ;;
        --radio-subnet) [[ $# -ge 2 ]] || usage_error "--radio-subnet needs a CIDR"; RADIO_SUBNETS+=("$2"); shift 2 ;;
        --radio-name)
            [[ $# -ge 2 ]] || usage_error "--radio-name needs a name"; check_radio_name "$2"; RADIO_NAMES+=("$2")
            shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; usage_error "unknown option $1" ;;
    esac
done
require_root
if [[ -n $BRIDGE_PASSWORD_FILE ]]; then
    ((${#DRONES[@]} <= 1)) || usage_error "--bridge-password-file is for one drone: give one --drone per run"
    check_password_file "$BRIDGE_PASSWORD_FILE"
fi
# The subnet ends up inside chrony's configuration: accept only an address/prefix.
for subnet in ${RADIO_SUBNETS[@]+"${RADIO_SUBNETS[@]}"}; do
    [[ $subnet =~ ^[0-9A-Fa-f.:]+(/[0-9]{1,3})?$ ]] || usage_error "bad --radio-subnet: $subnet"
done
need_openssl
# The map's TLS relay for other devices (quadcopter-map-tls.service).
[[ $DRY_RUN -eq 1 ]] || command -v socat >/dev/null \
    || die "install socat first (apt-get install socat): the map's TLS relay"
DRONE_ID="${DRONES[0]:-}"
# The drones this laptop serves: those given now and those installed before (their bridge passwords), so a run
# for a second drone keeps the first one's account and ACL block.
for known in "$ROOT"/etc/quadcopter/*-bridge.password; do
    [[ -e $known ]] || continue
    known="$(basename "$known" -bridge.password)"
    [[ $known =~ ^[a-z0-9-]{1,32}$ ]] && DRONES+=("$known")
done
((${#DRONES[@]} > 0)) || DRONES=(drone1)
mapfile -t DRONES < <(printf '%s\n' "${DRONES[@]}" | awk '!seen[$0]++')

install_services "${SERVICES[@]}"
# Each board's bridge logs in with its own account; both machines must hold the same password.
[[ -z $BRIDGE_PASSWORD_FILE ]] || store_password_file "$BRIDGE_PASSWORD_FILE" "${DRONES[0]}-bridge"
for drone in "${DRONES[@]}"; do ensure_broker_account "$drone-bridge" "$drone-bridge" root 0600; done
ensure_broker_account monitor monitor root 0600
# The live map logs in as `map` from the browser: the operator reads /etc/quadcopter/map.password (root only).
ensure_broker_account map map root 0600

log "live map page and Leaflet (libjs-leaflet) into $ROOT$MAP_DIR, served by the broker's websockets listener"
run "$REPO_DIR/scripts/web-map-assets.sh" "$ROOT$MAP_DIR"

log "TLS for the radio: the laptop's CA (kept, never regenerated) and the broker's certificate"
ca_key="$ROOT$CA_KEY" ca_cert="$ROOT$CA_CERT" cert="$ROOT$GROUND_CERT" key="$ROOT$GROUND_KEY"
if ((${#RADIO_NAMES[@]} == 0)); then
    host="$(hostname)"
    RADIO_NAMES=("$host" "$host.local")
    reissue=0
else
    reissue=1
fi
names="$(radio_names_san "${RADIO_NAMES[@]}")"
if [[ $DRY_RUN -eq 1 ]]; then
    printf '+ make the CA %s (key %s, 0600) unless it exists\n' "$ca_cert" "$ca_key"
    printf '+ issue %s (key %s, 0640 root:mosquitto) for %s\n' "$cert" "$key" "$names"
else
    install -d -m 0755 "$ROOT/etc/quadcopter" "$ROOT$CERT_DIR"
    make_radio_ca "$ca_key" "$ca_cert"
    if [[ $reissue -eq 1 || ! -s $cert || ! -s $key ]]; then
        issue_server_cert "$ca_key" "$ca_cert" "$key" "$cert" "$names"
        log "broker certificate for $names"
    else
        log "keeping the broker certificate $cert (give --radio-name to issue it for other names)"
    fi
    chmod 0640 "$key"
    ensure_owner root:mosquitto "$key"
fi

log "broker configuration: TLS listener for the radio, loopback listener, ACL (drones: ${DRONES[*]})"
acl_tmp="$(mktemp)"
# The template's drone1-bridge block (up to its blank line), once per drone with drone1 replaced by its id.
awk -v drones="${DRONES[*]}" '
    /^user drone1-bridge$/ { inside = 1 }
    inside && /^$/ {
        n = split(drones, ids, " ")
        for (i = 1; i <= n; i++) {
            text = block; gsub(/drone1/, ids[i], text); printf "%s%s", text, (i < n ? "\n" : "")
        }
        inside = 0; block = ""
    }
    inside { block = block $0 "\n"; next }
    { print }
' "$HERE/quadcopter.acl" >"$acl_tmp"
install_broker_file "$acl_tmp" "$ROOT/etc/mosquitto/conf.d/quadcopter.acl"
rm -f "$acl_tmp"
conf_tmp="$(mktemp)"
# An upgrade keeps a plain radio chosen earlier: 1883 was open on every interface.
if [[ $RECONFIGURE -eq 1 ]] && grep -qx 'listener 1883' "$ROOT/etc/mosquitto/conf.d/quadcopter.conf" 2>/dev/null; then
    INSECURE_PLAIN_RADIO=1
fi
if [[ $INSECURE_PLAIN_RADIO -eq 1 ]]; then
    warn_plain_radio
    sed -e 's/^listener 1883 127\.0\.0\.1$/listener 1883/' "$HERE/mosquitto.conf" >"$conf_tmp"
else
    cp "$HERE/mosquitto.conf" "$conf_tmp"
fi
install_broker_file "$conf_tmp" "$ROOT/etc/mosquitto/conf.d/quadcopter.conf"
rm -f "$conf_tmp"

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
# quadcopter-map-tls: the live map over TLS (9443) for other devices, relayed to the loopback listener.
install_units "$HERE" "${SERVICES[@]}" ground-beacon quadcopter-map-tls
log "done."
if [[ $DRY_RUN -eq 0 ]]; then
    log "The radio's CA: $ca_cert, SHA-256 fingerprint $(fingerprint "$ca_cert")"
    log "(the board prints the same fingerprint when it takes the copy; its key $ca_key stays here)."
fi
log "For each board, copy $ca_cert and /etc/quadcopter/<drone>-bridge.password to it (deploy/README.md) and run"
log "  deploy/drone/install.sh --drone <drone> --ground-address ${RADIO_NAMES[0]}:8883 \\"
log "      --ca-file <copied CA> --bridge-password-file <copied password>"
log "The live map: http://127.0.0.1:9001/ here; from another device https://${RADIO_NAMES[0]}:9443/ (systemctl start"
log "quadcopter-map-tls) once its browser trusts $ca_cert (deploy/README.md). Log in as map:"
log "sudo cat /etc/quadcopter/map.password"
