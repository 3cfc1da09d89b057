#!/usr/bin/env bash
# Makes (once) and prints the path of an arm64 Debian root in which the aarch64 C SDK and wheel run
# under qemu-aarch64 (user mode): debootstrap --foreign unpacks it, and its second stage runs in
# the root through qemu-aarch64-static, which binfmt_misc starts for every aarch64 program.
# The root is cached (reused while its stamp says it is complete) in
#   ${SB_ARM64_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/seeded-backoff/debian-bookworm-arm64}
# outside the Cargo target directory, so `cargo clean` keeps it and every clone on the machine
# shares it. Its only network use is Debian's mirror (debootstrap's downloads).
# Needs root (chroot), debootstrap and qemu-user-static (scripts/setup.sh installs them).
# usage: bash lab/lib/arm64-root.sh   (prints the root's path on stdout, progress on stderr)
set -euo pipefail

suite=bookworm
mirror=${SB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# python3 for the wheel; its one dependency, cffi, from Debian too (no PyPI inside the root), with
# python3-ply, which provides the virtual packages pycparser needs (debootstrap resolves none);
# pip, which checks the wheel's tags as a user's install does; pytest for python/tests.
packages=python3,python3-cffi,python3-ply,python3-pip,python3-pytest
root=${SB_ARM64_ROOT:-${XDG_CACHE_HOME:-$HOME/.cache}/seeded-backoff/debian-$suite-arm64}
stamp="$root/.seeded-backoff-root"
want="$suite $packages"

say() { echo "arm64-root: $*" >&2; }

# binfmt_misc: mounted and with the qemu-aarch64 entry of qemu-user-static (its F flag opens the
# interpreter now, so it also works inside the chroot). systemd registers it at boot on a desktop;
# a container or VM without systemd has to do it here.
binfmt=/proc/sys/fs/binfmt_misc
if [ ! -e "$binfmt/register" ]; then
  mount -t binfmt_misc binfmt_misc "$binfmt" || { say "cannot mount $binfmt"; exit 1; }
fi
if [ ! -e "$binfmt/qemu-aarch64" ]; then
  cat /usr/lib/binfmt.d/qemu-aarch64.conf >"$binfmt/register" ||
    { say "cannot register qemu-aarch64 with binfmt_misc (is qemu-user-static installed?)"; exit 1; }
fi

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  say "cached root $root ($want)"
  echo "$root"
  exit 0
fi

start=$SECONDS
say "building $root ($want) from $mirror: the first time takes minutes"
rm -rf "$root"
mkdir -p "$root"
# --foreign: download and unpack here (amd64 tools, about a minute); --second-stage: install and
# configure inside the root, every program of it an aarch64 one under qemu-aarch64: about 7 min of
# CPU, 18 min on this project's 2-core machine under a load of 12. The timeouts bound a stalled
# mirror or emulator.
timeout 600 debootstrap --arch=arm64 --variant=minbase --foreign --include="$packages" \
  "$suite" "$root" "$mirror" >"$root.log" 2>&1 || { tail -n 20 "$root.log" >&2; say "first stage failed"; exit 1; }
say "first stage (download, unpack) done in $((SECONDS - start)) s"
timeout 1800 chroot "$root" /debootstrap/debootstrap --second-stage >>"$root.log" 2>&1 ||
  { tail -n 20 "$root.log" >&2; say "second stage failed"; exit 1; }
rm -rf "$root/var/cache/apt/archives"/*.deb
chroot "$root" python3 -c 'import cffi, pip, platform, pytest; assert platform.machine() == "aarch64"' ||
  { say "the root's python3 is not an aarch64 one with cffi, pip and pytest"; exit 1; }
echo "$want" >"$stamp"
say "built in $((SECONDS - start)) s ($(du -sh "$root" | cut -f1))"
echo "$root"
