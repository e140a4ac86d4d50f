#!/usr/bin/env bash
# `make packages-check`: installs the packages `make packages` wrote into fresh Debian roots and checks that they
# work: quadcopter-ground (amd64) in a Debian 12 bookworm root, quadcopter-board (arm64) in a Debian 13 trixie root
# whose programs run under qemu-aarch64-static. For each:
#   1. dpkg -i (the board's is then set up with quadcopter-board-setup, a test CA and bridge password);
#   2. systemd-analyze verify of every unit the set-up installed (the root's own systemd);
#   3. mosquitto and the enabled services started from their units, as systemd would (see below), and each
#      service's retained quad/<drone>/status/<service> must say "online" on the root's broker, as installed
#      (its accounts, ACL and listener);
#   4. the board: quadcopter-board-setup --vehicle mavlink disables and stops drone-link, mavlink-link comes online;
#   5. upgrade: the same package with a bumped version; a marker in the state directory, the passwords, the
#      certificates and the env files are unchanged, the running services run the new executables (a new pid,
#      online again), the vehicle choice is kept;
#   6. dpkg -r stops the services (their processes end) and removes the units, the logs stay, and mosquitto still
#      starts with the configuration left behind;
#   7. dpkg --purge removes every file the set-up made under /etc and /usr, keeps /var/lib/quadcopter, and mosquitto
#      runs again without the project's snippets.
# No systemd runs in a chroot: the root gets /usr/local/sbin/systemctl, which logs each call, does what systemd
# would do to the processes (start, stop, restart, try-restart, disable --now: quad-unit, which reads the unit's
# User, Group, EnvironmentFile, StateDirectory and its ExecStartPre and ExecStart lines and runs them with setpriv)
# and passes the call on to the real systemctl (enable and disable work offline on a root).
# Each root runs in namespaces of its own (user, mount, pid, network: loopback only, so its broker's port 1883 is its
# own), in a copy on tmpfs of a cached root (.build-board/roots/check-*, made once with mmdebstrap), so nothing
# stays behind. The arm64 root gets qemu-aarch64-static through a binfmt_misc instance of its user
# namespace: the machine's own binfmt registrations are not touched. Any missing piece is a failure, never a skip.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${QUAD_BOARD_DIR:-$repo/.build-board}
mirror=http://deb.debian.org/debian
die() { echo "packages-check: $*" >&2; exit 1; }

# in_namespaces [--net] CMD...: CMD as root of a new user namespace (every id mapped to itself, so files keep their
# owners), with its own mount and pid namespaces (and network namespace with --net).
in_namespaces() {
  local net=() fifo upid status=0
  [[ $1 != --net ]] || { net=(--net); shift; }
  fifo=$(mktemp -u)
  mkfifo "$fifo"
  unshare --user --mount --pid "${net[@]}" --fork --propagation private -- \
    bash -c 'read -r _ <"$0"; exec "$@"' "$fifo" "$@" &
  upid=$!
  for _ in $(seq 200); do
    [[ $(readlink "/proc/$upid/ns/user") != $(readlink /proc/self/ns/user) ]] && break
    sleep 0.02
  done
  echo '0 0 4294967295' >"/proc/$upid/uid_map"
  echo '0 0 4294967295' >"/proc/$upid/gid_map"
  echo go >"$fifo"
  rm -f "$fifo"
  wait "$upid" || status=$?
  return "$status"
}

# In the namespaces: qemu-aarch64-static for aarch64 ELF files, in this user namespace's binfmt_misc only.
register_qemu() {
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:'`
    `'\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'`
    `'/usr/bin/qemu-aarch64-static:FCP' >/proc/sys/fs/binfmt_misc/register
}

if [[ ${1:-} == --make-root ]]; then
  # --make-root ARCH SUITE DIR PKGS (in the namespaces): mmdebstrap, emulating arm64's maintainer scripts.
  arch=$2 suite=$3 dir=$4 pkgs=$5
  mount -t proc proc /proc
  [[ $arch == amd64 ]] || register_qemu
  exec mmdebstrap --quiet --skip=chroot/mount/sys --variant=apt --architectures="$arch" --include="$pkgs" \
    "$suite" "$dir" "$mirror"
fi

# ---- the check of one package, in the namespaces (--inside SIDE ARCH ROOT DEB BUMPED_DEB SCRATCH) --------------
if [[ ${1:-} == --inside ]]; then
  side=$2 arch=$3 root=$4 deb=$5 bumped=$6 scratch=$7
  say() { echo "packages-check [$side] $*"; }
  m=""
  dump() {
    [[ -n $m && -d $m/run/quad-check ]] || return 0
    for f in "$m"/run/quad-check/*.log "$m"/var/log/mosquitto/mosquitto.log; do
      [[ -e $f ]] && { echo "--- ${f#"$m"}"; tail -n 15 "$f"; }
    done >&2
  }
  fail() { echo "packages-check [$side] FAIL: $*" >&2; dump; exit 1; }
  mount -t proc proc /proc
  [[ $arch == amd64 ]] || register_qemu
  ip link set lo up
  if [[ $side == drone ]]; then
    # The AR.Drone's WiFi (drone-link's default 192.168.1.1) as a veth pair with both ends in this network
    # namespace: what drone-link sends goes nowhere, as on a board whose drone is still switched off.
    ip link add quad-drone type veth peer name quad-drone-peer
    ip addr add 192.168.1.2/24 dev quad-drone
    ip link set quad-drone up
    ip link set quad-drone-peer up
  fi
  # The caller's directory (it removes it); a tmpfs over it holds the root's copy while this namespace lives.
  mkdir -p "$scratch"
  mount -t tmpfs tmpfs "$scratch"
  # A copy of the cached root on tmpfs (an overlay refuses dpkg's directory renames in a user namespace).
  m=$scratch/root
  cp -a "$root" "$m"
  mount -t proc proc "$m/proc"
  mount --rbind /dev "$m/dev"
  mount -t tmpfs tmpfs "$m/run"
  mount -t tmpfs tmpfs "$m/tmp"
  mkdir -p "$m/run/quad-check"
  cp "$deb" "$m/tmp/package.deb"
  cp "$bumped" "$m/tmp/bumped.deb"
  R() { chroot "$m" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 "$@"; }

  # quad-unit start|stop|running UNIT: what systemd does to a unit's processes, for this check.
  cat >"$m/usr/local/sbin/quad-unit" <<'UNIT'
#!/bin/bash
set -euo pipefail
state=/run/quad-check
unit=$2
file=""
for dir in /etc/systemd/system /usr/lib/systemd/system /lib/systemd/system; do
  [[ -e $dir/$unit ]] && { file=$dir/$unit; break; }
done
# The unit with its continued lines (a trailing backslash) joined, as systemd reads them.
key() { sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$file" | sed -n "s/^$1=//p"; }
pidfile=$state/$unit.pid
running() {
  [[ -e $pidfile ]] || return 1
  local s
  s=$(awk '{print $3}' "/proc/$(cat "$pidfile")/stat" 2>/dev/null) || return 1
  [[ $s != Z ]]
}
case $1 in
  running) running ;;
  start)
    [[ -n $file ]] || { echo "quad-unit: no unit $unit" >&2; exit 1; }
    running && exit 0
    user=$(key User | tail -n 1); user=${user:-root}
    # DynamicUser=yes: an unprivileged user of systemd's choosing; nobody here.
    [[ $(key DynamicUser | tail -n 1) != yes ]] || user=nobody
    group=$(key Group | tail -n 1); group=${group:-$(id -gn "$user")}
    gid_of() { getent group "$1" | cut -d: -f3; }
    groups=(--init-groups)
    extra=$(key SupplementaryGroups | tail -n 1)
    [[ -z $extra ]] || groups=(--groups "$(gid_of "$extra")")
    for assignment in $(key Environment); do export "${assignment?}"; done
    mode=$(key StateDirectoryMode | tail -n 1)
    state_dirs=""
    for dir in $(key StateDirectory); do
      install -d -m 0755 "/var/lib/${dir%/*}"
      install -d -m "${mode:-0755}" -o "$user" -g "$group" "/var/lib/$dir"
      state_dirs+=${state_dirs:+:}/var/lib/$dir
    done
    export STATE_DIRECTORY=$state_dirs
    while read -r pre; do [[ -z $pre ]] || eval "${pre#-}"; done < <(key ExecStartPre)
    envfile=$(key EnvironmentFile | tail -n 1)
    setsid setpriv --reuid="$(id -u "$user")" --regid="$(gid_of "$group")" "${groups[@]}" bash -c \
      'if [[ -n $0 ]]; then set -a; . "$0"; set +a; fi; eval "exec $1"' "${envfile#-}" "$(key ExecStart | tail -n 1)" \
      >>"$state/$unit.log" 2>&1 </dev/null &
    echo $! >"$pidfile"
    echo "quad-unit: started $unit as $user (pid $!)" >>"$state/quad-unit.log"
    ;;
  stop)
    if running; then
      pid=$(cat "$pidfile")
      kill -TERM "$pid"
      for _ in $(seq 150); do running || break; sleep 0.1; done
      ! running || kill -KILL "$pid"
      echo "quad-unit: stopped $unit (pid $pid)" >>"$state/quad-unit.log"
    fi
    rm -f "$pidfile"
    ;;
esac
UNIT
  cat >"$m/usr/local/sbin/systemctl" <<'CTL'
#!/bin/bash
# systemctl for the check: does to the processes what systemd would (quad-unit), then the real systemctl.
echo "systemctl $*" >>/run/quad-check/systemctl.log
now=0 verb="" units=()
for arg in "$@"; do
  case $arg in
    --now) now=1 ;;
    -*) ;;
    *) if [[ -z $verb ]]; then verb=$arg; else units+=("$arg"); fi ;;
  esac
done
for unit in "${units[@]}"; do
  [[ $unit == *.* ]] || unit+=.service
  # The project's units and the broker; chrony and the rest stay as the real systemctl leaves them in a chroot.
  [[ -e /etc/systemd/system/$unit || $unit == mosquitto.service ]] || continue
  case $verb in
    start) quad-unit start "$unit" ;;
    stop) quad-unit stop "$unit" ;;
    restart) quad-unit stop "$unit"; quad-unit start "$unit" ;;
    try-restart) if quad-unit running "$unit"; then quad-unit stop "$unit"; quad-unit start "$unit"; fi ;;
    disable) [[ $now -eq 0 ]] || quad-unit stop "$unit" ;;
    enable) [[ $now -eq 0 ]] || quad-unit start "$unit" ;;
  esac
done
# --now was done above, as a running systemd would; the real systemctl refuses it where systemd does not run.
args=()
for arg in "$@"; do [[ $arg == --now ]] || args+=("$arg"); done
exec /usr/bin/systemctl "${args[@]}" 2>>/run/quad-check/systemctl.log
CTL
  chmod 0755 "$m/usr/local/sbin/quad-unit" "$m/usr/local/sbin/systemctl"
  snapshot() { (cd "$m" && find etc usr -xdev | sort); }
  snapshot >"$scratch/before"

  # online DRONE SERVICE...: waits (90 s: qemu is slow to start) until each service's retained presence says online.
  online() {
    local drone=$1; shift
    local pw missing=("$@") seen service deadline=$((SECONDS + 90))
    pw=$(cat "$m/etc/quadcopter/monitor.password")
    while ((${#missing[@]} > 0)); do
      ((SECONDS < deadline)) || fail "not online after 90 s: ${missing[*]}"
      seen=$(R mosquitto_sub -h 127.0.0.1 -p 1883 -u monitor -P "$pw" -t "quad/$drone/status/#" -v -W 2 \
        --retained-only 2>/dev/null || true)
      local left=()
      for service in "${missing[@]}"; do
        grep -q "^quad/$drone/status/$service[ /].*\"state\":\"online\"" <<<"$seen" || left+=("$service")
      done
      missing=(${left[@]+"${left[@]}"})
    done
    printf '%s\n' "$seen" >"$m/run/quad-check/status.txt"
    say "online: $*"
  }
  pid_of() {
    sed -n "s/^quad\/$1\/status\/$2[ /].*\"pid\":\([0-9]*\).*/\1/p" "$m/run/quad-check/status.txt" | head -n 1
  }
  enabled_units() {
    local f
    for f in "$m"/usr/share/quadcopter/deploy/"$side"/*.service; do
      [[ -L $m/etc/systemd/system/multi-user.target.wants/${f##*/} ]] && echo "${f##*/}"
    done
  }
  processes_of() { local unit; for unit in "$@"; do R quad-unit running "$unit" && echo "$unit"; done; true; }

  say "dpkg -i ${deb##*/}"
  R dpkg -i /tmp/package.deb >"$m/run/quad-check/dpkg-install.log" 2>&1 \
    || { cat "$m/run/quad-check/dpkg-install.log" >&2; fail "dpkg -i"; }
  if [[ $side == drone ]]; then
    drone=drone7
    grep -q 'not set up yet' "$m/run/quad-check/dpkg-install.log" || fail "the postinst did not say how to set up"
    # The laptop's CA and the bridge password, as a user copies them (deploy/common.sh makes the CA).
    (source "$repo/deploy/common.sh"; make_radio_ca "$scratch/ca.key" "$m/tmp/ca.crt" >/dev/null
     generate_password >"$m/tmp/bridge.password")
    R quadcopter-board-setup --drone "$drone" --ground-address ground.test --ca-file /tmp/ca.crt \
      --bridge-password-file /tmp/bridge.password >"$m/run/quad-check/setup.log" 2>&1 \
      || { cat "$m/run/quad-check/setup.log" >&2; fail "quadcopter-board-setup"; }
    services=(navigator drone-controller drone-link telemetry-logger)
    state_dir=/var/lib/quadcopter/controller
  else
    drone=drone1
    services=(location-broadcaster telemetry-logger)
    state_dir=/var/lib/quadcopter/logs
  fi
  mapfile -t units < <(enabled_units)
  say "enabled: ${units[*]}"
  ((${#units[@]} > 0)) || fail "no unit enabled"
  for unit in "${units[@]}"; do
    grep -q "^ExecStart=/usr/bin/" "$m/etc/systemd/system/$unit" || fail "$unit does not run /usr/bin's executable"
    R systemd-analyze verify "/etc/systemd/system/$unit" >"$m/run/quad-check/verify-$unit.log" 2>&1 \
      || { cat "$m/run/quad-check/verify-$unit.log" >&2; fail "systemd-analyze verify $unit"; }
  done
  say "systemd-analyze verify: ${#units[@]} units pass"
  R systemctl start mosquitto.service
  R systemctl start "${units[@]}"
  online "$drone" "${services[@]}"
  if [[ -L $m/etc/systemd/system/multi-user.target.wants/quadcopter-map-tls.service ]]; then
    # The live map for other devices: its page over TLS on 9443, the certificate checked against the laptop's CA.
    for _ in $(seq 30); do
      page=$(printf 'GET / HTTP/1.0\r\n\r\n' | R openssl s_client -quiet -connect 127.0.0.1:9443 -servername localhost \
        -CAfile /etc/quadcopter/quadcopter-ca.crt -verify_return_error 2>/dev/null || true)
      grep -qi '<html' <<<"$page" && break
      sleep 1
    done
    grep -qi '<html' <<<"$page" || fail "quadcopter-map-tls: no map page over TLS on 9443"
    say "quadcopter-map-tls: the map page over TLS on 9443, certificate verified against the laptop's CA"
  fi

  if [[ $side == drone ]]; then
    R quadcopter-board-setup --vehicle mavlink --mavlink-listen 127.0.0.1:14540 >>"$m/run/quad-check/setup.log" 2>&1 \
      || { tail -n 20 "$m/run/quad-check/setup.log" >&2; fail "quadcopter-board-setup --vehicle mavlink"; }
    [[ -z $(processes_of drone-link.service) ]] || fail "drone-link still runs after --vehicle mavlink"
    [[ ! -L $m/etc/systemd/system/multi-user.target.wants/drone-link.service ]] || fail "drone-link still enabled"
    [[ -L $m/etc/systemd/system/multi-user.target.wants/mavlink-link.service ]] || fail "mavlink-link not enabled"
    R systemctl start mavlink-link.service
    services=(navigator drone-controller mavlink-link telemetry-logger)
    online "$drone" "${services[@]}"
    mapfile -t units < <(enabled_units)
    say "vehicle mavlink: drone-link stopped and disabled, mavlink-link online"
  fi

  # Upgrade: the same package, a higher version.
  R install -d "$state_dir"
  echo "kept across upgrades" | R tee "$state_dir/check-marker" >/dev/null
  secrets() { (cd "$m" && sha256sum etc/quadcopter/* etc/mosquitto/certs/* etc/mosquitto/conf.d/quadcopter.*); }
  secrets >"$scratch/secrets-before"
  declare -A pids
  for service in "${services[@]}"; do pids[$service]=$(pid_of "$drone" "$service"); done
  say "dpkg -i ${bumped##*/} (upgrade)"
  R dpkg -i /tmp/bumped.deb >"$m/run/quad-check/dpkg-upgrade.log" 2>&1 \
    || { cat "$m/run/quad-check/dpkg-upgrade.log" >&2; fail "dpkg -i (upgrade)"; }
  bumped_version=$(dpkg-deb -f "$bumped" Version)
  [[ $(R dpkg-query -W -f '${Version}' "$(dpkg-deb -f "$bumped" Package)") == "$bumped_version" ]] \
    || fail "the installed version is not $bumped_version"
  [[ $(cat "$m$state_dir/check-marker" 2>/dev/null) == "kept across upgrades" ]] || fail "$state_dir lost its marker"
  secrets >"$scratch/secrets-after"
  diff "$scratch/secrets-before" "$scratch/secrets-after" >&2 \
    || fail "the upgrade changed passwords, certificates, env files or the broker's snippets"
  online "$drone" "${services[@]}"
  for service in "${services[@]}"; do
    [[ $(pid_of "$drone" "$service") != "${pids[$service]}" ]] || fail "$service was not restarted by the upgrade"
  done
  mapfile -t after < <(enabled_units)
  [[ "${after[*]}" == "${units[*]}" ]] || fail "the upgrade changed the enabled units: ${units[*]} → ${after[*]}"
  say "upgrade to $bumped_version: marker, $(wc -l <"$scratch/secrets-before") secret and configuration files" \
    "unchanged, ${#services[@]} services restarted (new pids) and online, units kept"

  logs_before=$(find "$m/var/lib/quadcopter/logs" -type f | wc -l)
  say "dpkg -r"
  R dpkg -r "$(dpkg-deb -f "$deb" Package)" >"$m/run/quad-check/dpkg-remove.log" 2>&1 \
    || { cat "$m/run/quad-check/dpkg-remove.log" >&2; fail "dpkg -r"; }
  still=$(processes_of "${units[@]}")
  [[ -z $still ]] || fail "still running after dpkg -r: $still"
  for unit in "${units[@]}"; do [[ ! -e $m/etc/systemd/system/$unit ]] || fail "$unit left after dpkg -r"; done
  [[ ! -e $m/usr/bin/telemetry-logger ]] || fail "/usr/bin/telemetry-logger left after dpkg -r"
  ((logs_before > 0)) || fail "telemetry-logger wrote no log to keep"
  [[ $(find "$m/var/lib/quadcopter/logs" -type f | wc -l) -eq $logs_before ]] || fail "dpkg -r touched the logs"
  [[ -e $m/etc/quadcopter/telemetry-logger.password ]] || fail "dpkg -r removed the configuration"
  # The broker with what stays of its configuration (the snippets name files the package took away, e.g. the map).
  R systemctl restart mosquitto.service
  sleep 2
  R quad-unit running mosquitto.service || fail "mosquitto does not start after dpkg -r"
  say "dpkg -r: ${#units[@]} services stopped, units removed, $logs_before log file(s) and the configuration kept"

  R dpkg --purge "$(dpkg-deb -f "$deb" Package)" >"$m/run/quad-check/dpkg-purge.log" 2>&1 \
    || { cat "$m/run/quad-check/dpkg-purge.log" >&2; fail "dpkg --purge"; }
  # Left after purge, beside what the fresh root had: only the users' lines' backups, empty directories of
  # systemd's and mosquitto's that other packages use too.
  left=$(snapshot | comm -13 "$scratch/before" - | grep -v -E \
    '^etc/(passwd|group|shadow|gshadow|subuid|subgid)-$|^etc/systemd/system/multi-user.target.wants$' || true)
  [[ -z $left ]] || fail "left after dpkg --purge: $(echo $left)"
  [[ $(find "$m/var/lib/quadcopter/logs" -type f | wc -l) -eq $logs_before ]] || fail "purge removed the logs"
  sleep 2
  R quad-unit running mosquitto.service || fail "mosquitto does not run after dpkg --purge (its try-restart)"
  say "dpkg --purge: nothing of the set-up left in /etc or /usr; $(grep -c 'purge: removed' \
    "$m/run/quad-check/dpkg-purge.log") paths removed, as it printed; /var/lib/quadcopter kept"
  say "PASS"
  exit 0
fi

# ---- main (--roots-only: make the cached roots for the packages there, check nothing) ---------------------------
roots_only=false
case ${1:-} in
  --roots-only) roots_only=true ;;
  "") ;;
  *) die "unknown option $1 (only --roots-only)" ;;
esac
[[ $(id -u) -eq 0 ]] || die "needs root (namespaces, chroot, mmdebstrap)"
"$repo/scripts/ensure-deps.sh" --board
packages=$out/packages
shopt -s nullglob
boards=("$packages"/quadcopter-board_*_arm64.deb)
grounds=("$packages"/quadcopter-ground_*_amd64.deb)
shopt -u nullglob
((${#boards[@]} == 1 && ${#grounds[@]} == 1)) || die "no packages in $packages: run make packages first"

# ensure_root ARCH SUITE DEB: a cached root with what the package depends on (and the check's tools), made once.
ensure_root() {
  local arch=$1 suite=$2 deb=$3 pkgs key dir
  pkgs=$(dpkg-deb -f "$deb" Depends | sed -e 's/ *([^)]*)//g' -e 's/ //g'),mosquitto-clients,systemd,util-linux
  key=$(printf '%s\n' "$arch" "$suite" "$mirror" "$pkgs" | sha256sum | cut -c1-12)
  dir=$out/roots/check-$arch-$suite-$key
  if [[ ! -e $dir/.complete ]]; then
    find "$out/roots" -maxdepth 1 -name "check-$arch-$suite-*" -exec rm -rf {} +
    echo "packages-check: making the $arch $suite root for the check ($pkgs)" >&2
    mkdir -p "$out/roots"
    in_namespaces "$0" --make-root "$arch" "$suite" "$dir" "$pkgs" >&2 || die "mmdebstrap failed ($arch $suite)"
    touch "$dir/.complete"
  fi
  echo "$dir"
}

# bump DEB: the same package with a higher version (…+check1), into a temporary directory.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bump() {
  local deb=$1 tree=$work/tree version
  rm -rf "$tree"
  dpkg-deb -R "$deb" "$tree"
  version=$(dpkg-deb -f "$deb" Version)+check1
  sed -i "s/^Version: .*/Version: $version/" "$tree/DEBIAN/control"
  dpkg-deb --root-owner-group -Zgzip -z1 --build "$tree" "$work/${deb##*/}.bumped" >/dev/null
  rm -rf "$tree"
  echo "$work/${deb##*/}.bumped"
}

start=$SECONDS
ground_root=$(ensure_root amd64 bookworm "${grounds[0]}")
board_root=$(ensure_root arm64 trixie "${boards[0]}")
echo "packages-check: roots ready ($((SECONDS - start)) s)"
if $roots_only; then exit 0; fi
t=$SECONDS
in_namespaces --net "$0" --inside ground amd64 "$ground_root" "${grounds[0]}" "$(bump "${grounds[0]}")" "$work/ground"
echo "packages-check: quadcopter-ground passed ($((SECONDS - t)) s)"
t=$SECONDS
in_namespaces --net "$0" --inside drone arm64 "$board_root" "${boards[0]}" "$(bump "${boards[0]}")" "$work/board"
echo "packages-check: quadcopter-board passed ($((SECONDS - t)) s)"
echo "packages-check: 2 passed, 0 failed ($((SECONDS - start)) s)"
