#!/usr/bin/env bash
# `make packages`: the Debian packages, from what `make board` and the release build made.
#   quadcopter-board_<version>_arm64.deb   navigator, drone-controller, drone-link, mavlink-link, telemetry-logger
#                                          (.build-board/bin, aarch64, Debian trixie's swiftlang 6.0.3)
#   quadcopter-ground_<version>_amd64.deb  location-broadcaster, telemetry-logger (scripts/swift-release.sh here),
#                                          the live map's page (web/map) and scripts/web-map-assets.sh
# Each ships its executables in /usr/bin (stripped), deploy/common.sh, deploy/README.md and its side's deploy/ folder in
# /usr/share/quadcopter/deploy, and quadcopter-<side>-setup in /usr/sbin, which runs that install.sh --packaged. The
# set-up puts the map with Debian's Leaflet into /usr/share/quadcopter/map as from a checkout: so it stays for the
# broker's http_dir after `dpkg -r` (the broker's snippets stay too) and only purge removes it.
# The maintainer scripts (scripts/packaging/) do nothing install.sh does: the postinst runs the setup.
# Version: ServiceRuntime.version, the commit count and hash (0.1.0+git734.g33cab25; +dirty for changed tracked
# files); every file's time is the commit's (SOURCE_DATE_EPOCH), so one commit gives the same bytes.
# Writes $QUAD_BOARD_DIR/packages (default .build-board/packages). --skip-build takes the executables as they are.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${QUAD_BOARD_DIR:-$repo/.build-board}
dest=$out/packages
skip_build=0
die() { echo "packages: $*" >&2; exit 1; }
for arg in "$@"; do
  case $arg in
    --skip-build) skip_build=1 ;;
    *) die "unknown option $arg (only --skip-build)" ;;
  esac
done
[[ $(id -u) -eq 0 ]] || die "needs root (make board's Debian roots)"
# The board's tools (mmdebstrap, llvm-strip, dpkg-deb, …); the laptop's build needs libmosquitto-dev and the map
# Leaflet, which scripts/ensure-deps.sh (make deps) installs with the test tools.
"$repo/scripts/ensure-deps.sh" --board
[[ -e /usr/include/mosquitto.h && -r /usr/share/javascript/leaflet/leaflet.js ]] \
  || die "needs libmosquitto-dev and libjs-leaflet: apt-get install libmosquitto-dev libjs-leaflet (or make deps)"
for tool in dpkg-deb readelf llvm-strip git; do
  command -v "$tool" >/dev/null || die "needs $tool (apt-get install dpkg binutils llvm git)"
done

board_products=(navigator drone-controller drone-link mavlink-link telemetry-logger)
ground_products=(location-broadcaster telemetry-logger)

base=$(sed -n 's/.*public static let version = "\(.*\)".*/\1/p' "$repo/Shared/IO/QuadService/ServiceRuntime.swift")
[[ $base =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "no version in Shared/IO/QuadService/ServiceRuntime.swift"
version="$base+git$(git -C "$repo" rev-list --count HEAD).g$(git -C "$repo" rev-parse --short=7 HEAD)"
git -C "$repo" diff --quiet HEAD -- || version+="+dirty"
export SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH=$(git -C "$repo" log -1 --format=%ct)

# The ground's release build has a scratch directory of its own, not the repo's .build: SwiftPM locks a scratch
# directory while it builds, so CI's packages, made beside the test suites (.ci/run), never wait on the test build's
# lock nor make a suite wait on theirs. By hand it is a second release build beside `make release`'s, once.
ground_scratch=$out/ground-build
if [[ $skip_build -eq 0 ]]; then
  "$repo/scripts/board-build.sh"
  for product in "${ground_products[@]}"; do
    "$repo/scripts/with-own-tmp.sh" "$repo/scripts/swift-release.sh" --package-path "$repo" \
      --scratch-path "$ground_scratch" --product "$product" || die "release build failed for $product"
  done
fi
ground_bin=$ground_scratch/release
[[ -d $ground_bin ]] || die "no $ground_bin: run without --skip-build"

# package_of LIB: the Debian package that ships a shared library the executables load (both architectures).
package_of() {
  case $1 in
    libc.so.6|libm.so.6|ld-linux-*.so.*|libpthread.so.0|libdl.so.2|librt.so.1) echo libc6 ;;
    libstdc++.so.6) echo libstdc++6 ;;
    libgcc_s.so.1) echo libgcc-s1 ;;
    libmosquitto.so.1) echo libmosquitto1 ;;
    *) return 1 ;;
  esac
}

# depends_of FILE...: the Depends for the libraries the executables ask for (readelf -d), with the glibc and
# libstdc++ versions their symbols need (readelf -V: GLIBC_2.38 → libc6 (>= 2.38), GLIBCXX_3.4.30 → GCC 12's).
depends_of() {
  local libs=() lib pkg glibc cxx gcc
  mapfile -t libs < <(for f in "$@"; do readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; done | sort -u)
  glibc=$(for f in "$@"; do readelf -V "$f"; done | grep -o 'GLIBC_2\.[0-9]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
  cxx=$(for f in "$@"; do readelf -V "$f"; done | grep -o 'GLIBCXX_3\.4\.[0-9]*' | sed 's/.*\.//' | sort -n | tail -n 1)
  # GLIBCXX_3.4.N first came with GCC N-18 (3.4.29: GCC 11 … 3.4.33: GCC 14).
  gcc=$(( ${cxx:-29} - 18 ))
  for lib in "${libs[@]}"; do
    pkg=$(package_of "$lib") || die "no package known for $lib (add it to package_of in scripts/packages.sh)"
    case $pkg in
      libc6) echo "libc6 (>= $glibc)" ;;
      libstdc++6) echo "libstdc++6 (>= $gcc)" ;;
      *) echo "$pkg" ;;
    esac
  done | sort -u | paste -sd, | sed 's/,/, /g'
}

# build_package SIDE ARCH BIN_DIR DESCRIPTION PRODUCT...: stages the package's tree and writes the .deb.
build_package() {
  local side=$1 arch=$2 bin_dir=$3 description=$4; shift 4
  local package=quadcopter-$side stage product script depends
  local setup=$package-setup
  [[ $side == drone ]] && { package=quadcopter-board; setup=quadcopter-board-setup; }
  stage=$out/packaging/$package
  rm -rf "$stage"
  install -d -m 0755 "$stage/DEBIAN" "$stage/usr/bin" "$stage/usr/sbin" "$stage/usr/share/doc/$package" \
    "$stage/usr/share/quadcopter/deploy"
  for product in "$@"; do
    [[ -x $bin_dir/$product ]] || die "no executable $bin_dir/$product"
    # Stripped: the symbols and debug information are more than half of each file and are not needed to run.
    llvm-strip -o "$stage/usr/bin/$product" "$bin_dir/$product"
    chmod 0755 "$stage/usr/bin/$product"
  done
  cp -r "$repo/deploy/$side" "$stage/usr/share/quadcopter/deploy/$side"
  install -m 0644 "$repo/deploy/common.sh" "$repo/deploy/README.md" "$stage/usr/share/quadcopter/deploy/"
  if [[ $side == ground ]]; then
    install -d -m 0755 "$stage/usr/share/quadcopter/web/map" "$stage/usr/share/quadcopter/scripts"
    install -m 0644 "$repo"/web/map/*.html "$repo"/web/map/*.js "$stage/usr/share/quadcopter/web/map/"
    install -m 0755 "$repo/scripts/web-map-assets.sh" "$stage/usr/share/quadcopter/scripts/"
  fi
  for script in setup postinst prerm postrm; do
    local target=$stage/DEBIAN/$script
    [[ $script == setup ]] && target=$stage/usr/sbin/$setup
    sed -e "s/@PACKAGE@/$package/g" -e "s/@SIDE@/$side/g" -e "s/@SETUP@/$setup/g" \
      "$repo/scripts/packaging/$script" >"$target"
    chmod 0755 "$target"
  done
  printf 'quadcopter services over MQTT (%s), built from the repository at %s.\n' "$package" "$version" \
    >"$stage/usr/share/doc/$package/copyright"
  depends=$(depends_of "${@/#/$stage/usr/bin/}")
  # What install.sh runs: mosquitto_passwd (mosquitto), openssl, chronyd, useradd (passwd), systemctl.
  depends+=", mosquitto, openssl, chrony, passwd, systemd"
  # The laptop's live map over TLS for other devices: quadcopter-map-tls.service runs socat.
  # And the map's Leaflet, which the set-up copies next to the page (scripts/web-map-assets.sh).
  [[ $side == ground ]] && depends+=", socat, libjs-leaflet"
  local other=quadcopter-ground
  [[ $package == quadcopter-ground ]] && other=quadcopter-board
  cat >"$stage/DEBIAN/control" <<EOF
Package: $package
Version: $version
Architecture: $arch
Maintainer: quadcopter project <quadcopter@localhost>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Recommends: mosquitto-clients
Conflicts: $other
Section: misc
Priority: optional
Description: $description
 Set up with $setup (deploy/README.md, /usr/share/quadcopter/deploy/README.md).
EOF
  find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  chmod -R go-w "$stage"
  mkdir -p "$dest"
  rm -f "$dest/${package}"_*"_$arch.deb"
  dpkg-deb --root-owner-group -Zxz --build "$stage" "$dest/${package}_${version}_$arch.deb" >/dev/null
  echo "packages: $dest/${package}_${version}_$arch.deb ($(du -h "$dest/${package}_${version}_$arch.deb" | cut -f1))"
}

build_package drone arm64 "$out/bin" "quadcopter board services (navigator, drone-controller, vehicle links, logger)" \
  "${board_products[@]}"
build_package ground amd64 "$ground_bin" "quadcopter ground laptop (location-broadcaster, telemetry-logger, live map)" \
  "${ground_products[@]}"
rm -rf "$out/packaging"
