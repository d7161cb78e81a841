#!/bin/bash
# test-deb.sh DEB: installs the .deb with apt into a clean Debian root and
# checks, inside it, that every shared library of /usr/bin/switchboard (those
# its window loads when it opens too) and of the local model runtime (/usr/lib/switchboard/llama-server) resolves and
# that both run. Run by 'make test-package'.
#
# The root is made once with debootstrap (minbase, this machine's Debian
# release and mirror) into $SWITCHBOARD_DEBOOTSTRAP (default
# ~/.cache/switchboard-debootstrap/base) and never changed: each run
# installs into a throw-away overlay on top of it, so every run starts clean.
# Downloaded packages and apt lists are kept beside it, and a .deb already
# tested (same sha256) is not tested again, so a warm run costs nothing.
# What the .deb's Depends line brings in is a layer of its own, made once
# per Depends line (apt-get satisfy, as apt installing the .deb would) and
# kept a week, so the next .deb with the same line installs only itself:
# 55 s of unpacking ~170 packages becomes 7 s, and the check is
# the same, since that layer holds exactly what the line asks for.
# Needs root (debootstrap, mount, chroot): the Makefile runs it with sudo.
# 'test-deb.sh --base' only makes the clean root (make test's prewarm does,
# in the background, while the tests run). 'test-deb.sh --layer DEPENDS'
# makes the root and the layer of a Depends line (make test starts it in the
# background once the app is built: package.sh --depends), so the packages
# step finds it made, or waits for it.
set -euo pipefail

cache=${SWITCHBOARD_DEBOOTSTRAP_CACHE:-$HOME/.cache/switchboard-debootstrap}
base=${SWITCHBOARD_DEBOOTSTRAP:-$cache/base}
usage="usage: test-deb.sh DEB | --base | --layer DEPENDS"
only_base=no layer_only=no deb= depends=
case "${1:?$usage}" in
--base) only_base=yes ;;
--layer) layer_only=yes depends=${2:?$usage} ;;
*) deb=$(readlink -f "$1") ;;
esac
sum=
[ -z "$deb" ] || sum=$(sha256sum "$deb" | cut -c1-64)
stamp=$cache/tested/$sum
if [ -n "$deb" ] && [ -e "$stamp" ]; then
  echo "test-deb: $(basename "$deb") already passed in a clean Debian root (cached: $stamp)"
  exit 0
fi

. /etc/os-release
suite=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
sources() { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v "^[[:space:]]*#" || true; }
# The mirror apt uses here (deb822 'URIs:' or one-line 'deb URI'), not its security suite.
mirror=$(sources |
  grep -oE '(URIs:[[:space:]]*|^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)[a-z]+://[^[:space:]]+/debian/?([[:space:]]|$)' |
  grep -oE '[a-z]+://[^[:space:]]+' | { grep -v security || true; } | head -1)
mirror=${mirror:-http://deb.debian.org/debian}
security=$(sources |
  { grep -oE '[a-z]+://[^[:space:]]+/debian-security/?' || true; } | head -1)
security=${security:-http://deb.debian.org/debian-security}

# One maker of the root at a time (the prewarm's and the packages step's):
# the second waits, then finds it made.
mkdir -p "$cache"
exec 8>"$cache/base.lock"
flock -n 8 || { echo "test-deb: waiting for the clean root being made (make test's prewarm)"; flock 8; }
if [ ! -x "$base/usr/bin/apt-get" ]; then
  echo "test-deb: making a clean Debian $suite root in $base from $mirror (once)"
  rm -rf "$base.tmp"
  mkdir -p "$(dirname "$base")"
  debootstrap --variant=minbase "$suite" "$base.tmp" "$mirror" > "$cache/debootstrap.log" 2>&1 ||
    { tail -20 "$cache/debootstrap.log"; exit 1; }
  mv "$base.tmp" "$base"
fi
flock -u 8
[ $only_base = no ] || exit 0

work=$(mktemp -d)
mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  mounts=()
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$cache/archives/partial" "$cache/lists/partial"
root=
# open_root LOWER UPPER: a root at $root, made of LOWER (overlayfs lowerdir:
# one folder, or several top first) with changes going to UPPER, apt's
# caches shared and this machine's mirror in its sources.
open_root() {
  root=$work/root$((${#mounts[@]}))
  mkdir -p "$2" "$2.work" "$root"
  mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$2.work" "$root"; mounts+=("$root")
  mount --bind "$cache/archives" "$root/var/cache/apt/archives"; mounts+=("$root/var/cache/apt/archives")
  mount --bind "$cache/lists" "$root/var/lib/apt/lists"; mounts+=("$root/var/lib/apt/lists")
  mount -t proc proc "$root/proc"; mounts+=("$root/proc")
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  # The release with its updates, as an installed Debian has them.
  printf 'deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n' \
    "$mirror" "$suite" "$mirror" "$suite" "$security" "$suite" > "$root/etc/apt/sources.list"
}
close_root() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}"; done
  mounts=()
}
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

# The Depends layer: made when missing or a week old, by one maker at a time
# (make test's, started once the app is built, and the packages step's).
[ -n "$depends" ] || depends=$(dpkg-deb -f "$deb" Depends)
layer=$cache/depends-$(printf '%s\n%s\n' "$suite" "$depends" | sha256sum | cut -c1-16)
exec 7>"$cache/layer.lock"
flock -n 7 || { echo "test-deb: waiting for the Depends layer being made (make test's, in the background)"; flock 7; }
if [ ! -d "$layer" ] || [ -n "$(find "$layer" -maxdepth 0 -mtime +7)" ]; then
  echo "test-deb: installing the .deb's Depends into a layer over the clean root (once per Depends line)"
  open_root "$base" "$work/layer"
  in_root apt-get -qq update
  in_root apt-get satisfy -y -qq --no-install-recommends "$depends" > "$work/apt.log" 2>&1 ||
    { tail -30 "$work/apt.log"; exit 1; }
  in_root apt-get clean
  close_root
  rm -rf "$cache"/depends-*
  mv "$work/layer" "$layer"
  touch "$layer" # its age is the install's
fi
flock -u 7
if [ $layer_only = yes ]; then
  echo "test-deb: the Depends layer is $layer"
  exit 0
fi

echo "test-deb: apt install $(basename "$deb") into a clean $suite root (its Depends from $(basename "$layer"))"
open_root "$layer:$base" "$work/upper"
cp "$deb" "$root/tmp/"
in_root apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" > "$work/apt.log" 2>&1 ||
  { tail -30 "$work/apt.log"; exit 1; }
# Nothing but the .deb itself was left to install.
if grep -E '^(Setting up|Unpacking) ' "$work/apt.log" | grep -v ' switchboard ' | grep -q .; then
  echo "test-deb: installing the .deb brought packages its Depends layer did not have:"; grep -E '^(Setting up|Unpacking) ' "$work/apt.log"; exit 1
fi

missing=$(in_root ldd /usr/bin/switchboard | grep 'not found' || true)
if [ -n "$missing" ]; then
  echo "test-deb: shared libraries of /usr/bin/switchboard do not resolve after installing the .deb (add their packages to Depends):"
  echo "$missing"
  exit 1
fi
echo "test-deb: every shared library of /usr/bin/switchboard resolves ($(in_root ldd /usr/bin/switchboard | wc -l) libraries)"
# The window's libraries, which the binary loads when the window opens
# (app/windowlibs), not at its start: each is there, with all of its own.
window=$("$(dirname "$0")"/windowlibs.sh)
ldcache=$(in_root /sbin/ldconfig -p) # read whole: an early exit of a reader would fail the pipe (pipefail)
for so in $window; do
  lib=$(awk -v so="$so" '$1 == so && !found {print $NF; found = 1}' <<<"$ldcache")
  [ -n "$lib" ] || { echo "test-deb: the window's library $so is not installed by the .deb's Depends (see build/linux/package.sh)"; exit 1; }
  missing=$(in_root ldd "$lib" | grep 'not found' || true)
  [ -z "$missing" ] || { echo "test-deb: shared libraries of $lib (the window's) do not resolve after installing the .deb:"; echo "$missing"; exit 1; }
done
echo "test-deb: the window's $(wc -w <<<"$window") libraries and theirs resolve"
out=$(in_root switchboard version)
echo "test-deb: in the root, 'switchboard version' says: $out"
want=$(dpkg-deb -f "$deb" Version)
[[ $out == switchboard* ]] || { echo "test-deb: unexpected 'switchboard version' output"; exit 1; }
# The local model runtime: its own libraries are beside it (RUNPATH $ORIGIN),
# theirs came with the .deb's Depends, and it runs.
llama=/usr/lib/switchboard/llama-server
for exe in "$llama" $(cd "$root" && ls usr/lib/switchboard/lib*.so | sed 's#^#/#'); do
  missing=$(in_root ldd "$exe" | grep 'not found' || true)
  [ -z "$missing" ] || { echo "test-deb: shared libraries of $exe do not resolve after installing the .deb:"; echo "$missing"; exit 1; }
done
echo "test-deb: $llama and its $(cd "$root" && ls usr/lib/switchboard/lib*.so | wc -l) libraries resolve"
lv=$(in_root "$llama" --version 2>&1) || { echo "test-deb: $llama --version failed: $lv"; exit 1; }
echo "test-deb: in the root, '$llama --version' says: $(grep -m1 '^version' <<<"$lv")"
for f in /usr/share/applications/switchboard.desktop /usr/share/mime/packages/switchboard.xml /usr/share/icons/hicolor/512x512/apps/switchboard.png; do
  [ -s "$root$f" ] || { echo "test-deb: $f is missing after install"; exit 1; }
done
echo "test-deb: switchboard $want installed and runs in a clean Debian root"
mkdir -p "$(dirname "$stamp")"
touch "$stamp"
