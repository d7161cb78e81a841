#!/bin/bash
# package.sh BIN VERSION OUTDIR LLAMA_SERVER: the Linux packages of
# Switchboard — a .deb and a .tar.gz of the same files — from a built binary
# and the local model runtime (llama.cpp's llama-server, build/llama/build.sh),
# installed as /usr/lib/switchboard/llama-server, where the app looks for it
# beside /usr/bin (localmodel.FindRuntime: <dir>/../lib/switchboard), with
# the shared libraries beside it in its build (llama.cpp's and ggml's, ggml's
# CPU backend once per x86-64 generation: it finds them through its RUNPATH
# $ORIGIN and loads the CPU backend from its own directory). No model is
# packaged. Run by 'make package'.
#
# The .deb's Depends are the Debian packages that own the shared libraries
# the binary links and the window loads when it opens (WebKitGTK 4.1, GTK 3,
# ...: windowlibs.sh), found with objdump + dpkg -S on the build machine, so
# they are exactly what it needs. Timestamps are the
# last commit's (SOURCE_DATE_EPOCH): the same binary gives the same .deb,
# which is what 'make test-package' keys its cache on.
#
# package.sh --depends BIN LLAMA_SERVER prints that Depends line only (make
# test has the clean Debian root's layer of those packages made with it,
# build/linux/test-deb.sh --layer, before the .deb is).
set -euo pipefail

# depends_line BIN LLAMA_SERVER: the package of every shared library the
# binaries and the runtime's libraries link directly (their NEEDED entries,
# but those shipped beside llama-server), each at least the version
# installed here; those packages bring their own dependencies. dpkg -S is
# asked once for all the libraries: each call reads dpkg's whole file list
# (half a second of CPU), and the runtime's libraries name the same few
# system libraries over and over.
depends_line() {
  local bin=$1 llama=$2 exe so lib libs owners p v line=
  local -A want=() # library as dpkg may know it (symlinks resolved) -> as ldd gave it
  local -a again=()
  for exe in "$bin" "$llama" "$(dirname "$llama")"/lib*.so; do
    [ -e "$exe" ] || continue
    libs=$(ldd "$exe")
    for so in $(objdump -p "$exe" | awk '$1 == "NEEDED" {print $2}'); do
      [ ! -e "$(dirname "$llama")/$so" ] || continue # shipped beside it
      # "libX.so => /path (…)", or the loader's own line "/path/ld-linux….so.2 (…)"
      lib=$(awk -v so="$so" '$1 == so && $3 ~ /^\// {print $3} $1 ~ ("/" so "$") {print $1}' <<<"$libs" | head -1)
      [ -n "$lib" ] || { echo "package.sh: $exe needs $so, which does not resolve here" >&2; return 1; }
      want[$(readlink -f "$lib")]=$lib
    done
  done
  # The window's libraries: a Linux x86-64 binary loads them when the window
  # opens (app/windowlibs), so they are not among its NEEDED entries.
  local cache
  cache=$(/sbin/ldconfig -p) # read whole: an early exit of a reader would fail the pipe (pipefail)
  for so in $("$(dirname "$0")"/windowlibs.sh); do
    lib=$(awk -v so="$so" -v dir="/$(uname -m)-linux-gnu/" '$1 == so && index($NF, dir) && !found {print $NF; found = 1}' <<<"$cache")
    [ -n "$lib" ] || { echo "package.sh: the window needs $so, which ldconfig -p does not list here (install WebKitGTK 4.1 with apt)" >&2; return 1; }
    want[$(readlink -f "$lib")]=$lib
  done
  [ ${#want[@]} -gt 0 ] || { echo "package.sh: found no library packages for $bin (is it dynamically linked, and are they installed with apt?)" >&2; return 1; }
  owners=$(dpkg -S "${!want[@]}" 2>/dev/null || true)
  # What dpkg knows only by the path ldd gave (a /lib path on a merged /usr).
  for lib in "${!want[@]}"; do
    [[ $'\n'$owners$'\n' == *": $lib"$'\n'* ]] || again+=("${want[$lib]}")
  done
  if [ ${#again[@]} -gt 0 ]; then
    owners+=$'\n'$(dpkg -S "${again[@]}") || { echo "package.sh: no Debian package owns ${again[*]} (install the libraries with apt)" >&2; return 1; }
  fi
  for p in $(grep -v '^$' <<<"$owners" | cut -d: -f1 | sort -u); do
    v=$(dpkg-query -W -f='${Version}' "$p" | sed 's/-[^-]*$//') # upstream part: any Debian revision of it will do
    line+="$p (>= ${v#*:}), "
  done
  echo "${line%, }"
}

if [ "${1:-}" = --depends ]; then
  depends_line "${2:?usage: package.sh --depends BIN LLAMA_SERVER}" "${3:?usage: package.sh --depends BIN LLAMA_SERVER}"
  exit
fi

bin=$1 version=$2 out=$3 llama=${4:?package.sh: the 4th argument is llama-server (make package builds it)}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
arch=$(dpkg --print-architecture)

# Debian versions start with a digit and allow one '-' (before the revision):
# v1.2.0-3-gabc-dirty -> 1.2.0+3.gabc.dirty
debver=${version#v}
[[ $debver =~ ^[0-9] ]] || debver="0.0.0+$debver"
debver=$(sed -e 's/-/+/' -e 's/-/./g' <<<"$debver")

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
install -D -m 0755 "$bin" "$root/usr/bin/switchboard"
install -D -m 0755 -s "$llama" "$root/usr/lib/switchboard/llama-server"
for so in "$(dirname "$llama")"/lib*.so; do
  [ -e "$so" ] || continue
  install -m 0644 "$so" "$root/usr/lib/switchboard/"
  strip --strip-unneeded "$root/usr/lib/switchboard/$(basename "$so")"
done
install -D -m 0644 "$here/switchboard.desktop" "$root/usr/share/applications/switchboard.desktop"
install -D -m 0644 "$here/switchboard-mcpb.xml" "$root/usr/share/mime/packages/switchboard.xml"
install -D -m 0644 "$here/copyright" "$root/usr/share/doc/switchboard/copyright"
install -D -m 0644 "$repo/build/appicon.svg" "$root/usr/share/icons/hicolor/scalable/apps/switchboard.svg"
# hicolor icons 16-512 px, made once from build/appicon.png (cached beside it).
icons=$repo/build/linux/.icons
for n in 16 24 32 48 64 128 256 512; do
  png=$icons/${n}.png
  if [ ! -s "$png" ] || [ "$png" -ot "$repo/build/appicon.png" ]; then
    mkdir -p "$icons"
    convert "$repo/build/appicon.png" -resize "${n}x${n}" -strip "PNG32:$png"
  fi
  install -D -m 0644 "$png" "$root/usr/share/icons/hicolor/${n}x${n}/apps/switchboard.png"
done

depends=$(depends_line "$bin" "$llama")

mkdir -p "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: switchboard
Version: $debver
Architecture: $arch
Maintainer: Switchboard developers <switchboard@users.noreply.github.com>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Recommends: gnome-keyring | keepassxc, bubblewrap, xdg-utils
Section: utils
Priority: optional
Homepage: https://github.com/switchboard-app/switchboard
Description: desktop MCP host: your MCP servers with any model
 Switchboard brings the MCP servers you already use (the mcpServers JSON of
 Claude Desktop, Cursor or VS Code) to any model: OpenAI-compatible,
 Anthropic, local Ollama / LM Studio, or a model it runs on this computer
 with llama.cpp (included; models are downloaded on request). Keys are kept
 in the Secret Service keyring (gnome-keyring or KeePassXC); bubblewrap
 sandboxes servers.
CONTROL

export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)}
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$out"
deb=$out/switchboard_${debver}_${arch}.deb
tgz=$out/switchboard_${debver}_linux_${arch}.tar.gz
rm -f "$out"/switchboard_*_"$arch".deb "$out"/switchboard_*_linux_"$arch".tar.gz
# The two archives are compressed side by side (gzip is single-threaded).
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
  -C "$root" --exclude=./DEBIAN -cf - . | gzip -n -6 > "$tgz" &
tarred=$!
dpkg-deb --root-owner-group -Zgzip -z6 --build "$root" "$deb" >/dev/null
wait "$tarred" || { echo "package.sh: making $tgz failed" >&2; exit 1; }
echo "$deb"
echo "$tgz"
