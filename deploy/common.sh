# Shared by deploy/drone/install.sh and deploy/ground/install.sh. Sourced, not run.
# Every change to the system goes through `run` (or `write_file`), so --dry-run prints exactly what would happen
# and --root DIR confines it to a staging tree.

DRY_RUN=0
ROOT=""
PREBUILT=""
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MOSQUITTO_PASSWD_FILE=/etc/mosquitto/quadcopter.passwd

log() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

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
  --prebuilt DIR     take the executables from DIR instead of building them'

# Installs a configuration file, readable by root and mosquitto only (the broker reads it after dropping root).
install_broker_file() {
    local source="$1" target="$2"
    run install -m 0640 "$source" "$target"
    ensure_owner root:mosquitto "$target"
}

# Builds (or takes from --prebuilt) the executables and installs them to /usr/local/bin.
install_binaries() {
    local bin_dir name
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

# /etc/quadcopter/<name>.env from the template, never overwriting an edited one.
ensure_env_file() {
    local template="$1" name="$2" target="$ROOT/etc/quadcopter/$2.env"
    if [[ -e $target ]]; then
        log "keeping existing $target"
    else
        run install -m 0644 "$template" "$target"
    fi
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

# Installs units and enables them (in the staging root, `systemctl --root` creates the same symlinks offline).
install_units() {
    local unit_dir="$1"; shift
    run install -d -m 0755 "$ROOT/etc/systemd/system"
    local name
    for name in "$@"; do
        run install -m 0644 "$unit_dir/$name.service" "$ROOT/etc/systemd/system/$name.service"
    done
    run install -d -m 0755 "$ROOT/usr/local/share/doc/quadcopter"
    run install -m 0644 "$REPO_DIR/deploy/README.md" "$ROOT/usr/local/share/doc/quadcopter/README.md"
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
