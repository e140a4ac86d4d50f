#!/usr/bin/env bash
# `make board`: cross-builds the board services for aarch64 Linux in release mode, from Debian's packages only.
#
# No Swift 6.3 exists for aarch64 here, so the board build uses Debian's own Swift, `swiftlang` 6.0.3 (trixie):
#   - toolchain root: an amd64 trixie root (mmdebstrap) holding swiftlang, git and pkgconf; the compiler runs there
#     (chroot in a mount namespace of its own, so nothing stays mounted).
#   - sysroot: trixie's arm64 packages extracted, never run: swiftlang:arm64 brings the aarch64 stdlib, its static
#     libraries and swiftrt.o, libc6-dev, libstdc++/libgcc and libmosquitto-dev the rest. qemu-aarch64-static runs
#     the binaries with it as the root (-L .build-board/sysroot), as `make board-flight` does.
#   - swift-log, swift-service-lifecycle and swift-async-algorithms ask for tools 6.2 (for traits), so SwiftPM 6.0
#     refuses them: each is re-tagged, at the version /opt/swift-packages holds, with a Package@swift-6.0.swift from
#     scripts/board/deps/ (and swift-log's `nonisolated(nonsending)`, a 6.2 spelling, removed), and the toolchain
#     root's git reads those three URLs from there. The host build (6.3) keeps the packages as they are.
# Each root is made once, under .build-board/roots/<name>-<key> (key: a hash of what it holds); a second run reuses
# it, and SwiftPM's scratch directory (.build-board/build) too. Writes .build-board/bin/<service> (ELF aarch64) and
# .build-board/bin/NEEDED (the shared libraries each one asks for, readelf -d). QUAD_BOARD_DIR moves .build-board.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${QUAD_BOARD_DIR:-$repo/.build-board}
suite=trixie
mirror=http://deb.debian.org/debian
products=(navigator drone-controller drone-link mavlink-link telemetry-logger)
toolchain_pkgs=(swiftlang git pkgconf libc6-dev libgcc-14-dev libstdc++-14-dev binutils)
sysroot_pkgs=(swiftlang libswiftlang libc6-dev libmosquitto-dev libstdc++-14-dev libgcc-14-dev)
# OWNER/NAME VERSION: the tools-6.2 packages re-tagged with a 6.0 manifest (scripts/board/deps/NAME.swift).
patched=("apple/swift-log 1.16.2" "swift-server/swift-service-lifecycle 2.13.0" "apple/swift-async-algorithms 1.1.4")

die() { echo "board-build: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || die "needs root (mmdebstrap, chroot, mount namespaces)"
"$repo/scripts/ensure-deps.sh" --board
[[ -d /opt/swift-packages ]] || die "no /opt/swift-packages (the Swift package mirror SwiftPM resolves from)"
mkdir -p "$out/roots"

key_of() { printf '%s\n' "$@" | sha256sum | cut -c1-12; }

# ensure_root NAME ARCH VARIANT PKG...: prints the root's path, making it (once) if absent; older keys are removed.
ensure_root() {
  local name=$1 arch=$2 variant=$3; shift 3
  local key dir
  key=$(key_of "$suite" "$mirror" "$arch" "$variant" "$@")
  dir=$out/roots/$name-$key
  if [[ ! -e $dir/.complete ]]; then
    find "$out/roots" -maxdepth 1 -name "$name-*" -exec rm -rf {} +
    echo "board-build: making the $arch $suite root $name ($*)" >&2
    mmdebstrap --quiet --variant="$variant" --architectures="$arch" --include="$(IFS=,; echo "$*")" \
      "$suite" "$dir" "$mirror" >&2 || die "mmdebstrap failed for $name"
    if [[ $variant == extract ]]; then
      # Merged /usr, as an installed trixie has it: the ELF interpreter is /lib/ld-linux-aarch64.so.1.
      local d; for d in bin lib sbin; do [[ -e $dir/$d ]] || ln -s "usr/$d" "$dir/$d"; done
    fi
    touch "$dir/.complete"
  fi
  echo "$dir"
}

toolchain=$(ensure_root toolchain amd64 apt "${toolchain_pkgs[@]}")
sysroot=$(ensure_root sysroot arm64 extract "${sysroot_pkgs[@]}")
# A name that stays: `make board-flight` runs the binaries with qemu-aarch64-static -L .build-board/sysroot.
ln -sfn "roots/${sysroot##*/}" "$out/sysroot"

# spell_for_6_0 DIR: rewrites the Swift 6.1/6.2 spellings those packages use into 6.0's, with the same meaning on
# Linux: a trailing comma before ')' (6.1) goes; `nonisolated(nonsending)` (6.2) goes, so those functions run on the
# generic executor as 6.0 runs every nonisolated async function; `_runtime(_multithreaded)` (6.1) is true but on WASI.
spell_for_6_0() {
  find "$1" -name '*.swift' -exec perl -0pi -e \
    's/,(\s*\n\s*\))/$1/g; s/nonisolated\(nonsending\) //g; s/_runtime\(_multithreaded\)/!os(WASI)/g' {} +
}

# The re-tagged dependencies: fixed dates, so the same inputs give the same commits and SwiftPM keeps its checkouts.
deps_key=$(key_of "${patched[@]}" "$(cat "$repo"/scripts/board/deps/*.swift)" "$(declare -f spell_for_6_0)")
deps=$out/deps-$deps_key
if [[ ! -e $deps/.complete ]]; then
  # New commits under the same tags: SwiftPM's pins, checkouts and the builds over them go too.
  rm -rf "$out"/deps-* "$out/src/Package.resolved" "$out/build"
  for entry in "${patched[@]}"; do
    read -r path version <<<"$entry"
    name=${path#*/}
    work=$deps/tree/$name
    git clone -q -c advice.detachedHead=false --branch "$version" "/opt/swift-packages/$path.git" "$work" \
      || die "no $path $version in /opt/swift-packages"
    cp "$repo/scripts/board/deps/$name.swift" "$work/Package@swift-6.0.swift"
    spell_for_6_0 "$work/Sources"
    git -C "$work" add -A
    GIT_AUTHOR_DATE=2025-01-01T00:00:00Z GIT_COMMITTER_DATE=2025-01-01T00:00:00Z \
      git -C "$work" -c user.name=board-build -c user.email=board-build@localhost commit -qm \
      "Package@swift-6.0.swift for the board build"
    git -C "$work" tag -f "$version" >/dev/null
    git clone -q --bare "$work" "$deps/$path.git"
  done
  rm -rf "$deps/tree"
  touch "$deps/.complete"
fi

# The Swift SDK for aarch64: the sysroot and its Swift resources (dynamic and static), the toolchain's lld.
sdk=$out/sdk/board-aarch64.artifactbundle
mkdir -p "$sdk/aarch64"
in_root() { echo "/board/${1#"$out/"}"; }
cat >"$sdk/info.json" <<EOF
{"schemaVersion": "1.0", "artifacts": {"board-aarch64": {"type": "swiftSDK", "version": "$suite",
  "variants": [{"path": "aarch64"}]}}}
EOF
cat >"$sdk/aarch64/swift-sdk.json" <<EOF
{"schemaVersion": "4.0", "targetTriples": {"aarch64-unknown-linux-gnu": {
  "sdkRootPath": "$(in_root "$sysroot")",
  "swiftResourcesPath": "$(in_root "$sysroot")/usr/libexec/swift/lib/swift",
  "swiftStaticResourcesPath": "$(in_root "$sysroot")/usr/libexec/swift/lib/swift_static",
  "toolsetPaths": ["toolset.json"]}}}
EOF
cat >"$sdk/aarch64/toolset.json" <<EOF
{"schemaVersion": "1.0", "rootPath": "/usr/libexec/swift/bin", "linker": {"path": "ld.lld"}}
EOF

# The sources as git sees them (tracked and new, not ignored), into a copy the chroot builds: SwiftPM writes
# Package.resolved there, not over the host's. rsync keeps unchanged files as they were, so a rebuild is incremental.
mkdir -p "$out/src" "$out/build" "$out/bin"
(cd "$repo" && git ls-files -co --exclude-standard -z) |
  rsync -a --delete --from0 --files-from=- --filter='P Package.resolved' --filter='P .swiftpm/' "$repo/" "$out/src/"

# git in the root: every GitHub address from the mirror, the three re-tagged ones from $deps (longest match wins).
{
  printf '[url "/opt/swift-packages/"]\n\tinsteadOf = https://github.com/\n'
  for entry in "${patched[@]}"; do
    path=${entry%% *}
    printf '[url "%s"]\n\tinsteadOf = https://github.com/%s.git\n' "$(in_root "$deps")/$path.git" "$path"
  done
  printf '[safe]\n\tdirectory = *\n'
} >"$toolchain/root/.gitconfig"

# run_in_toolchain CMD...: CMD in the toolchain root, with /proc, /dev, the mirror (read-only) and $out at /board.
run_in_toolchain() {
  unshare --mount --propagation private --fork -- bash -euo pipefail -c '
    root=$1 out=$2; shift 2
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mkdir -p "$root/opt/swift-packages" "$root/board"
    mount --bind -o ro /opt/swift-packages "$root/opt/swift-packages"
    mount --bind "$out" "$root/board"
    exec chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin TMPDIR=/tmp LANG=C.UTF-8 "$@"' \
    _ "$toolchain" "$out" "$@"
}

sys=$(in_root "$sysroot")
for product in "${products[@]}"; do
  echo "board-build: $product (aarch64, release)" >&2
  # scripts/swift-release.sh: the release flags every deployed build uses (static Swift runtime, lld, RELR). No
  # shared dependency cache (it would keep the first clone of a re-tagged package), and the fingerprints SwiftPM
  # keeps of each version in the scratch directory, to go with the checkouts.
  run_in_toolchain env PKG_CONFIG_SYSROOT_DIR="$sys" \
    PKG_CONFIG_LIBDIR="$sys/usr/lib/aarch64-linux-gnu/pkgconfig:$sys/usr/share/pkgconfig" \
    /board/src/scripts/swift-release.sh --package-path /board/src --scratch-path /board/build \
    --swift-sdks-path /board/sdk --swift-sdk board-aarch64 --disable-dependency-cache \
    --security-path /board/build/security --product "$product" \
    || die "swift build failed for $product"
done

bin=$out/build/aarch64-unknown-linux-gnu/release
needed=$out/bin/NEEDED
: >"$needed"
for product in "${products[@]}"; do
  cp -p "$bin/$product" "$out/bin/$product"
  file -b "$out/bin/$product" | grep -q 'ELF 64-bit LSB .*ARM aarch64' ||
    die "$product is not an aarch64 executable: $(file -b "$out/bin/$product")"
  {
    printf '%s: %s\n' "$product" "$(readelf -d "$out/bin/$product" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
      paste -sd ' ')"
  } >>"$needed"
done
echo "board-build: aarch64 executables in $out/bin; the libraries they load:" >&2
cat "$needed"
