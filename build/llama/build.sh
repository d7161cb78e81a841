#!/bin/sh
# Builds llama.cpp's llama-server, the runtime of the local model provider
# (app/localmodel), and llama-bench, llama.cpp's own benchmark that 'make
# bench' sets beside it, into DIR (default
# ~/.cache/switchboard/llama-<version>), once: a second run with both
# binaries in place does nothing (a cache made before llama-bench was added
# is built again, once).
#
# The source is the llama.cpp release that the node-llama-cpp npm package
# ships as a git bundle (MIT; pinned below), fetched from the npm registry
# with npm's own integrity check. It needs cmake and g++ and nothing else:
# the web UI (whose prebuilt copy would be downloaded at build time), HTTPS
# (OpenSSL) and curl are off, and it is built for x86-64 CPUs in general,
# not the build machine's (GGML_NATIVE=OFF: ggml's x86-64 baseline then
# still uses AVX2, FMA and F16C, so CPUs from about 2013 on). About 12
# minutes on 2 cores (llama-bench shares every library with the server: it
# adds one file).
#
# LLAMA_TARGET=windows-amd64 cross-compiles llama-server.exe for the Windows
# installer instead, with Debian's mingw-w64 (g++-mingw-w64-x86-64-posix):
# linked statically (-static for the executable: GGML_STATIC alone leaves it
# importing the MinGW runtime DLLs; Windows' own are all it needs) and
# without OpenMP (ggml's own thread pool), into DIR (default ~/.cache/switchboard/llama-<version>-windows-amd64).
# LLAMA_TARGET=macos-universal (on a Mac, with Xcode's command line tools)
# builds it for arm64 with Metal (the GPU of Apple silicon, its shaders
# embedded in the binary) and for x86_64 without (ggml's Metal backend is
# made for Apple silicon's unified memory; Intel Macs run it on the CPU), and
# joins the two with lipo, as the universal .app is.
#
#   build/llama/build.sh [DIR]   → DIR/bin/llama-server, DIR/bin/llama-bench,
#                                  DIR/src (the source, for its vocab files and licences)
#   LLAMA_TARGET=windows-amd64 build/llama/build.sh [DIR]   → DIR/bin/llama-server.exe
#   LLAMA_TARGET=macos-universal build/llama/build.sh [DIR]  → DIR/bin/llama-server
set -eu
NLC_VERSION=3.22.1 # node-llama-cpp; its llama/llama.cpp.info.json names the llama.cpp release
TARGET=${LLAMA_TARGET:-host}
case $TARGET in
host)
  DIR=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard/llama-node-llama-cpp-$NLC_VERSION}
  outputs="llama-server llama-bench"
  tools="cmake g++ git npm"
  cross=""
  ;;
windows-amd64)
  DIR=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard/llama-node-llama-cpp-$NLC_VERSION-windows-amd64}
  outputs="llama-server.exe"
  tools="cmake x86_64-w64-mingw32-gcc-posix x86_64-w64-mingw32-g++-posix x86_64-w64-mingw32-strip git npm"
  cross="-DCMAKE_SYSTEM_NAME=Windows -DCMAKE_SYSTEM_PROCESSOR=x86_64
    -DCMAKE_C_COMPILER=x86_64-w64-mingw32-gcc-posix -DCMAKE_CXX_COMPILER=x86_64-w64-mingw32-g++-posix
    -DCMAKE_RC_COMPILER=x86_64-w64-mingw32-windres -DGGML_STATIC=ON -DGGML_OPENMP=OFF
    -DCMAKE_EXE_LINKER_FLAGS=-static"
  ;;
macos-universal)
  DIR=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard/llama-node-llama-cpp-$NLC_VERSION-macos-universal}
  outputs="llama-server"
  tools="cmake c++ git npm lipo"
  cross="-DGGML_OPENMP=OFF -DCMAKE_OSX_DEPLOYMENT_TARGET=11.0"
  ;;
*)
  echo "build/llama/build.sh: LLAMA_TARGET=$TARGET is not one it builds (windows-amd64, macos-universal, or unset for this machine)" >&2
  exit 2
  ;;
esac
cached=yes
for o in $outputs; do [ -x "$DIR/bin/$o" ] || cached=no; done
if [ $cached = yes ] && { [ "$TARGET" != host ] || [ -f "$DIR/src/models/ggml-vocab-qwen2.gguf" ]; }; then
  exit 0
fi
for tool in $tools; do
  command -v "$tool" >/dev/null || { echo "build/llama/build.sh: $tool is missing (make deps-test installs cmake and g++; for Windows, apt install g++-mingw-w64-x86-64-posix)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "llama-server ($TARGET): fetching node-llama-cpp@$NLC_VERSION's llama.cpp source"
(cd "$tmp" && npm pack --silent "node-llama-cpp@$NLC_VERSION" >/dev/null && tar xzf "node-llama-cpp-$NLC_VERSION.tgz" package/llama)
git clone --quiet "$tmp/package/llama/gitRelease.bundle" "$tmp/src" 2>/dev/null
echo "llama-server ($TARGET): building (about 12 minutes on 2 cores; once)"
# build NAME ARGS...: one cmake build of every output into $tmp/NAME (they
# share its libraries).
build() {
  name=$1
  shift
  cmake -S "$tmp/src" -B "$tmp/$name" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF "$@" \
    -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF >"$tmp/cmake-$name.log" 2>&1 \
    || { cat "$tmp/cmake-$name.log" >&2; exit 1; }
  # shellcheck disable=SC2046 # the targets are words
  cmake --build "$tmp/$name" --target $(echo "$outputs" | sed 's/\.exe//g') -j "$(getconf _NPROCESSORS_ONLN)" >"$tmp/build-$name.log" 2>&1 \
    || { tail -50 "$tmp/build-$name.log" >&2; exit 1; }
}
if [ "$TARGET" = windows-amd64 ]; then
  # ggml asks Windows not to throttle its threads with
  # THREAD_POWER_THROTTLING_STATE, which mingw-w64 headers before version 11
  # (Debian 12's) lack: when they do, a header with its documented layout is
  # included ahead of every C file.
  printf '#include <windows.h>\nTHREAD_POWER_THROTTLING_STATE t;\n' >"$tmp/probe.c"
  if ! x86_64-w64-mingw32-gcc-posix -c -o "$tmp/probe.o" "$tmp/probe.c" 2>/dev/null; then
    cat >"$tmp/throttling.h" <<'H'
typedef struct _THREAD_POWER_THROTTLING_STATE { unsigned long Version, ControlMask, StateMask; } THREAD_POWER_THROTTLING_STATE;
#define THREAD_POWER_THROTTLING_CURRENT_VERSION 1
#define THREAD_POWER_THROTTLING_EXECUTION_SPEED 0x1
H
    cross="$cross -DCMAKE_C_FLAGS=-include$tmp/throttling.h"
  fi
fi
mkdir -p "$(dirname "$DIR")"
rm -rf "$DIR.new"
mkdir -p "$DIR.new/bin"
if [ "$TARGET" = macos-universal ]; then
  # shellcheck disable=SC2086 # $cross is a list of arguments
  build arm64 -DCMAKE_OSX_ARCHITECTURES=arm64 -DGGML_METAL=ON -DGGML_METAL_EMBED_LIBRARY=ON $cross
  # shellcheck disable=SC2086
  build x86_64 -DCMAKE_OSX_ARCHITECTURES=x86_64 -DGGML_METAL=OFF $cross
  lipo -create -output "$DIR.new/bin/llama-server" "$tmp/arm64/bin/llama-server" "$tmp/x86_64/bin/llama-server"
else
  # shellcheck disable=SC2086 # $cross is a list of arguments
  build build $cross
  for o in $outputs; do cp "$tmp/build/bin/$o" "$DIR.new/bin/"; done
  # The Linux binaries are stripped as they are packaged (install -s).
  [ "$TARGET" != windows-amd64 ] || x86_64-w64-mingw32-strip "$DIR.new/bin/llama-server.exe"
fi
if [ "$TARGET" = host ]; then
  rm -rf "$tmp/src/.git"
  mv "$tmp/src" "$DIR.new/src"
fi
rm -rf "$DIR"
mv "$DIR.new" "$DIR"
echo "llama-server ($TARGET): $DIR/bin/$(echo "$outputs" | cut -d' ' -f1)"
