# Shared by deploy/drone/install.sh and deploy/ground/install.sh. Sourced, not run.
# Every change to the system goes through `run` (or `write_file`), so --dry-run prints exactly what would happen
# and --root DIR confines it to a staging tree.

DRY_RUN=0
ROOT=""
PREBUILT=""
# --packaged: run by a Debian package (quadcopter-board-setup, quadcopter-ground-setup and the postinst), whose
# executables dpkg already put into /usr/bin and whose deploy/ tree is /usr/share/quadcopter/deploy.
PACKAGED=0
BIN_DIR=/usr/local/bin   # where the units run the executables from (/usr/bin with --packaged)
DOC_FILE=/usr/local/share/doc/quadcopter/README.md   # the units' Documentation= (the shipped copy with --packaged)
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MOSQUITTO_PASSWD_FILE=/etc/mosquitto/quadcopter.passwd

DRONE_ID=""   # --drone: the id in topics (quad/<id>/…), QUAD_DRONE in new env files, the bridge account <id>-bridge
INSECURE_PLAIN_RADIO=0
# --reconfigure: the package's postinst setting up a new version. It keeps every earlier choice, a plain radio too
# (said loudly, as at the first run): an upgrade must not leave dpkg with an unconfigured package.
RECONFIGURE=0
# TLS on the radio link: the laptop makes the CA (its key never leaves the laptop) and the ground broker's
# certificate; the board trusts the CA and checks the laptop's name against that certificate.
CA_KEY=/etc/quadcopter/quadcopter-ca.key
CA_CERT=/etc/quadcopter/quadcopter-ca.crt
CERT_DIR=/etc/mosquitto/certs
BOARD_CA_CERT=$CERT_DIR/quadcopter-ca.crt
GROUND_CERT=$CERT_DIR/quadcopter-ground.crt
GROUND_KEY=$CERT_DIR/quadcopter-ground.key

log() { printf '==> %s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
# A bad option or option value (the input's fault, not the system's): EX_USAGE, as the executables exit.
usage_error() { printf 'error: %s\n' "$*" >&2; exit 64; }

# Runs a command, or prints it under --dry-run.
run() {
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

# Staging installs (--root) cannot create system users or chown to them; say so instead.
staging() { [[ -n $ROOT ]]; }

# Usage text for the options every install script takes.
COMMON_USAGE='  --dry-run          print what would be done, change nothing
  --root DIR         install into a staging root DIR (no users, no chown, units enabled offline)
  --prebuilt DIR     take the executables from DIR instead of building them
  --packaged         as the Debian package runs it: the executables are already in /usr/bin (dpkg put them)
  --insecure-plain-radio
                     plain MQTT over the radio: the bridge password crosses it in clear (default: TLS)
  --reconfigure      as the package postinst runs it: keep every earlier choice, a plain radio too (warned)'

# Installs a configuration file, readable by root and mosquitto only (the broker reads it after dropping root).
install_broker_file() {
    local source="$1" target="$2"
    run install -m 0640 "$source" "$target"
    ensure_owner root:mosquitto "$target"
}

# Builds (or takes from --prebuilt) the executables and installs them to /usr/local/bin; with --packaged only
# checks that the package's are in /usr/bin.
install_binaries() {
    local bin_dir name
    if [[ $PACKAGED -eq 1 ]]; then
        for name in "$@"; do
            [[ $DRY_RUN -eq 1 || -x $ROOT$BIN_DIR/$name ]] \
                || die "no executable $ROOT$BIN_DIR/$name (reinstall the package)"
        done
        log "packaged: the executables are the package's, in $ROOT$BIN_DIR"
        return
    fi
    if [[ -n $PREBUILT ]]; then
        bin_dir="$PREBUILT"
    else
        log "building release binaries (static Swift runtime)"
        for name in "$@"; do
            run "$REPO_DIR/scripts/swift-release.sh" --package-path "$REPO_DIR" --product "$name"
        done
        if [[ $DRY_RUN -eq 1 ]]; then
            bin_dir="$REPO_DIR/.build/release"
        else
            bin_dir="$(swift build --package-path "$REPO_DIR" -c release --show-bin-path)"
        fi
    fi
    log "installing binaries to $ROOT/usr/local/bin"
    run install -d -m 0755 "$ROOT/usr/local/bin"
    for name in "$@"; do
        [[ $DRY_RUN -eq 1 || -x "$bin_dir/$name" ]] || die "no executable $bin_dir/$name"
        run install -m 0755 "$bin_dir/$name" "$ROOT/usr/local/bin/$name"
    done
}

# A system user and group per service: quad-<name>, no login, no home.
ensure_user() {
    local user="$1"
    if staging; then
        log "staging: skipping system user $user"
    elif ! getent passwd "$user" >/dev/null; then
        run useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user"
    fi
}

# chown, skipped in staging installs (the users do not exist there).
ensure_owner() {
    local owner="$1" path="$2"
    if staging; then
        log "staging: skipping chown $owner $path"
    else
        run chown "$owner" "$path"
    fi
}

# Parses the options both install scripts take; returns 1 for an option it does not know. Sets SHIFT_BY.
common_option() {
    SHIFT_BY=1
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --root) [[ $# -ge 2 ]] || usage_error "--root needs a directory"; ROOT="${2%/}"; SHIFT_BY=2 ;;
        --prebuilt) [[ $# -ge 2 ]] || usage_error "--prebuilt needs a directory"; PREBUILT="$2"; SHIFT_BY=2 ;;
        --packaged) PACKAGED=1; BIN_DIR=/usr/bin; DOC_FILE="$REPO_DIR/deploy/README.md" ;;
        --insecure-plain-radio) INSECURE_PLAIN_RADIO=1 ;;
        --reconfigure) RECONFIGURE=1 ;;
        *) return 1 ;;
    esac
}

# A drone id as the services take it (topics, ACL lines, the bridge account's name): [a-z0-9-]{1,32}.
check_drone_id() {
    [[ $1 =~ ^[a-z0-9-]{1,32}$ ]] || usage_error "bad --drone: '$1' (1-32 characters of a-z, 0-9 and '-')"
}

# Refuses to go on as non-root unless staging or only printing; refuses --prebuilt with --packaged.
require_root() {
    [[ $PACKAGED -eq 0 || -z $PREBUILT ]] || usage_error "--prebuilt and --packaged exclude each other"
    [[ $DRY_RUN -eq 1 || -n $ROOT || $(id -u) -eq 0 ]] || die "run as root (or use --root DIR / --dry-run)"
}

# Says, loudly, that the radio link is plain text (only ever on request: --insecure-plain-radio).
warn_plain_radio() {
    warn "--insecure-plain-radio: MQTT over the radio is PLAIN TEXT. The bridge's password and every command"
    warn "cross the air readable and forgeable by anyone in range. Use it only on a network you control."
}

# /etc/quadcopter/<name>.env from the template, never overwriting an edited one; a new one gets the drone id
# (--drone). $3, KEY=VALUE lines given by an install option (a MAVLink transport), replaces those keys in a new
# or an existing file: an option given on the command line is never ignored.
ensure_env_file() {
    local template="$1" name="$2" replace="${3:-}" target="$ROOT/etc/quadcopter/$2.env" source
    if [[ -e $target && -z $replace ]]; then
        log "keeping existing $target"
        return
    fi
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+ write %s (QUAD_DRONE=%s%s)\n' "$target" "${DRONE_ID:-drone1}" "${replace:+; ${replace//$'\n'/ }}"
        return
    fi
    local tmp
    tmp="$(mktemp)"
    if [[ -e $target ]]; then
        log "setting ${replace//$'\n'/ } in existing $target"
        replace_env_keys "$target" "$replace" >"$tmp"
    else
        sed -e "s/^QUAD_DRONE=.*/QUAD_DRONE=${DRONE_ID:-drone1}/" "$template" >"$tmp.template"
        replace_env_keys "$tmp.template" "$replace" >"$tmp"
        rm -f "$tmp.template"
    fi
    run install -m 0644 "$tmp" "$target"
    rm -f "$tmp"
}

# Prints an env file with the keys of the KEY=VALUE lines in $2 replaced by those lines (appended). A MAVLink
# transport is serial or UDP, never both: either one replaces every transport key.
replace_env_keys() {
    local file="$1" replace="$2" pattern='^__none__=' key
    for key in $(sed -n 's/^\([A-Z_]*\)=.*/\1/p' <<<"$replace"); do
        case $key in
            QUAD_SERIAL|QUAD_MAVLINK_LISTEN)
                pattern+='|^(QUAD_SERIAL|QUAD_BAUD|QUAD_FLOW_CONTROL|QUAD_MAVLINK_LISTEN)=' ;;
            *) pattern+="|^$key=" ;;
        esac
    done
    grep -v -E "$pattern" "$file" || true
    [[ -z $replace ]] || printf '%s\n' "$replace"
}

# A random password of 24 URL-safe characters.
generate_password() { head -c 18 /dev/urandom | base64 | tr '+/' '-_'; }

# Refuses a password file given on the command line that is unreadable or holds anything but URL-safe characters.
# The install scripts call it before changing anything, so bad input never leaves a half-done install.
check_password_file() {
    local source="$1" password
    [[ -r $source ]] || die "$source: cannot read the password file"
    password="$(cat "$source")"
    [[ $password =~ ^[A-Za-z0-9._~-]+$ ]] || die "$source: the password must consist of URL-safe characters only"
}

# Copies a password given on the command line (a file from the other machine) into /etc/quadcopter/<name>.password,
# root-only. Only URL-safe characters: the value ends up inside mosquitto.conf and on mosquitto_passwd's command line.
store_password_file() {
    local source="$1" name="$2" target="$ROOT/etc/quadcopter/$2.password" password
    check_password_file "$source"
    password="$(cat "$source")"
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+ copy the password from %s to %s (mode 0600)\n' "$source" "$target"
        return
    fi
    (umask 077 && printf '%s\n' "$password" >"$target")
    chmod 0600 "$target"
}

# Ensures /etc/quadcopter/<file>.password exists (generated once, then reused), readable only by root and the
# given group, and that the broker knows the account. Prints nothing secret.
ensure_broker_account() {
    local account="$1" password_path="$ROOT/etc/quadcopter/$2.password" group="$3" mode="$4" password
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+ generate password into %s (mode %s, root:%s) unless it exists\n' "$password_path" "$mode" "$group"
        printf '+ mosquitto_passwd -b %s %s <password>\n' "$ROOT$MOSQUITTO_PASSWD_FILE" "$account"
        return
    fi
    if [[ ! -s $password_path ]]; then
        (umask 077 && generate_password >"$password_path")
    fi
    chmod "$mode" "$password_path"
    ensure_owner "root:$group" "$password_path"
    password="$(cat "$password_path")"
    mosquitto_passwd -b "$ROOT$MOSQUITTO_PASSWD_FILE" "$account" "$password"
}

# The broker's password file must exist before accounts are added; mosquitto reads it after dropping to its own
# user, so it is owned by mosquitto and private (2.0.16+ warns about anything looser).
ensure_broker_password_file() {
    local path="$ROOT$MOSQUITTO_PASSWD_FILE"
    [[ $DRY_RUN -eq 1 ]] || command -v mosquitto_passwd >/dev/null \
        || die "install mosquitto first (apt-get install mosquitto)"
    run install -d -m 0755 "$ROOT/etc/mosquitto/conf.d"
    if [[ $DRY_RUN -eq 1 ]]; then
        printf '+ create %s (mode 0600, mosquitto:mosquitto) unless it exists\n' "$path"
        return
    fi
    [[ -e $path ]] || (umask 077 && : >"$path")
    chmod 0600 "$path"
    ensure_owner mosquitto:mosquitto "$path"
}

# Installs the role's chrony configuration (already rendered into $1) as /etc/chrony/conf.d/quadcopter.conf after
# chronyd itself has parsed it (`chronyd -p -f`), then restarts chrony and shows its sources. Time sync is what
# makes the two hosts' logs line up; flight safety never depends on it (monotonic clocks).
install_chrony_conf() {
    local rendered="$1" target="$ROOT/etc/chrony/conf.d/quadcopter.conf"
    if [[ $DRY_RUN -eq 0 ]]; then
        command -v chronyd >/dev/null || die "install chrony first (apt-get install chrony)"
        chronyd -p -f "$rendered" >/dev/null || die "chronyd refuses the rendered configuration $rendered"
    fi
    run install -d -m 0755 "$ROOT/etc/chrony/conf.d"
    run install -m 0644 "$rendered" "$target"
    if ! staging; then
        run systemctl restart chrony.service
        run chronyc -n sources || log "chronyc could not list sources yet; check with: chronyc sources"
    fi
}

# ---- TLS on the radio link -----------------------------------------------------------------------------------

need_openssl() {
    [[ $DRY_RUN -eq 1 ]] || command -v openssl >/dev/null || die "install openssl first (apt-get install openssl)"
}

# Makes a CA (key $1, certificate $2; EC P-256, 10 years: a field kit must not expire mid-season, and the key
# never leaves the laptop) unless the key exists: the boards trust this CA, so it is never regenerated. Paths
# are real (not under $ROOT): the bench and the tests make their own with it.
make_radio_ca() {
    local key="$1" cert="$2" conf
    if [[ -s $key && -s $cert ]]; then
        log "keeping the existing CA $cert (the boards trust it)"
        return
    fi
    [[ ! -e $key && ! -e $cert ]] || die "$key or $cert exists without the other: restore it, or remove both"
    conf="$(mktemp)"
    cat >"$conf" <<'CONF'
[req]
distinguished_name = dn
prompt = no
x509_extensions = ca
[dn]
CN = quadcopter radio CA
[ca]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
CONF
    (umask 077 && openssl req -x509 -config "$conf" -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -keyout "$key" -out "$cert" -days 3650 2>/dev/null) || { rm -f "$conf"; die "openssl could not make the CA"; }
    rm -f "$conf"
    chmod 0600 "$key"
    chmod 0644 "$cert"
}

# Issues the broker's certificate (key $3, certificate $4) from the CA (key $1, certificate $2) for the names in
# $5 (comma-separated subjectAltName entries such as DNS:laptop.local,IP:10.0.0.1): the board's bridge checks the
# address it connects to against them. A new key each time; nothing else depends on it.
issue_server_cert() {
    local ca_key="$1" ca_cert="$2" key="$3" cert="$4" names="$5" conf csr
    conf="$(mktemp)"
    csr="$(mktemp)"
    cat >"$conf" <<CONF
[req]
distinguished_name = dn
prompt = no
[dn]
CN = quadcopter ground broker
[server]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = $names
authorityKeyIdentifier = keyid
CONF
    (umask 077 && openssl req -new -config "$conf" -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -keyout "$key" -out "$csr" 2>/dev/null \
        && openssl x509 -req -in "$csr" -CA "$ca_cert" -CAkey "$ca_key" -set_serial "0x$(openssl rand -hex 16)" \
            -days 3650 -extfile "$conf" -extensions server -out "$cert" 2>/dev/null) \
        || { rm -f "$conf" "$csr"; die "openssl could not issue the broker certificate"; }
    rm -f "$conf" "$csr"
    chmod 0644 "$cert"
}

# subjectAltName entries for names given at install: an address as IP:, anything else as DNS:; localhost and
# 127.0.0.1 always (local tools may use TLS too).
radio_names_san() {
    local name san=""
    for name in "$@" localhost 127.0.0.1; do
        if [[ $name =~ ^[0-9.]+$ || $name == *:* ]]; then san+=",IP:$name"; else san+=",DNS:$name"; fi
    done
    printf '%s\n' "${san#,}"
}

# A name the laptop is reached by over the radio: a host name or an IPv4/IPv6 address (it ends up in openssl's
# configuration and in the certificate).
check_radio_name() {
    [[ $1 =~ ^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$ || $1 =~ ^[0-9A-Fa-f:.]+$ ]] \
        || usage_error "bad --radio-name: '$1' (a host name or an IP address)"
}

# Refuses a CA file given on the command line that is not one certificate of a CA, or that holds a private key (a
# CA's key must never leave the laptop).
check_ca_file() {
    local file="$1"
    [[ -r $file ]] || usage_error "$file: cannot read the CA certificate"
    ! grep -q 'PRIVATE KEY' "$file" \
        || usage_error "$file holds a private key: copy only the CA's certificate ($CA_CERT), never its key"
    need_openssl
    [[ $DRY_RUN -eq 1 ]] || openssl x509 -noout -in "$file" 2>/dev/null \
        || usage_error "$file: not a PEM certificate (copy $CA_CERT from the laptop)"
    [[ $DRY_RUN -eq 1 ]] || openssl x509 -noout -ext basicConstraints -in "$file" 2>/dev/null | grep -q 'CA:TRUE' \
        || usage_error "$file: not a CA certificate (copy $CA_CERT from the laptop)"
}

# The SHA-256 fingerprint of a certificate, to compare on both machines after copying the CA.
fingerprint() { openssl x509 -noout -fingerprint -sha256 -in "$1" | sed 's/^.*=//'; }

# Installs units and enables them (in the staging root, `systemctl --root` creates the same symlinks offline).
install_units() {
    local unit_dir="$1"; shift
    run install -d -m 0755 "$ROOT/etc/systemd/system"
    local name
    for name in "$@"; do
        if [[ $PACKAGED -eq 1 ]]; then
            # The same unit, running the package's executable and naming the package's README.
            if [[ $DRY_RUN -eq 1 ]]; then
                printf '+ write %s (ExecStart from %s)\n' "$ROOT/etc/systemd/system/$name.service" "$BIN_DIR"
                continue
            fi
            sed -e "s|^ExecStart=/usr/local/bin/|ExecStart=$BIN_DIR/|" -e \
                "s|^Documentation=file:///usr/local/share/doc/quadcopter/README\.md\$|Documentation=file://$DOC_FILE|" \
                "$unit_dir/$name.service" >"$ROOT/etc/systemd/system/$name.service"
            chmod 0644 "$ROOT/etc/systemd/system/$name.service"
        else
            run install -m 0644 "$unit_dir/$name.service" "$ROOT/etc/systemd/system/$name.service"
        fi
    done
    if [[ $PACKAGED -eq 0 ]]; then
        run install -d -m 0755 "$ROOT${DOC_FILE%/*}"
        run install -m 0644 "$REPO_DIR/deploy/README.md" "$ROOT$DOC_FILE"
    fi
    local units=()
    for name in "$@"; do units+=("$name.service"); done
    if staging; then
        run systemctl --root="$ROOT" enable "${units[@]}"
    else
        run systemctl daemon-reload
        run systemctl enable "${units[@]}"
        run systemctl restart mosquitto.service
    fi
}

# Binaries, then per service: a system user, an env file in /etc/quadcopter and a broker account with a generated
# password (both roles do the same; $HERE is the calling role's folder).
install_services() {
    install_binaries "$@"
    log "service users and configuration"
    for name in "$@"; do ensure_user "quad-$name"; done
    run install -d -m 0755 "$ROOT/etc/quadcopter"
    for name in "$@"; do ensure_env_file "$HERE/$name.env" "$name"; done
    log "broker accounts (one per service, passwords generated once)"
    ensure_broker_password_file
    for name in "$@"; do ensure_broker_account "$name" "$name" "quad-$name" 0640; done
}
