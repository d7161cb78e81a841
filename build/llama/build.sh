#!/bin/sh
# Builds llama.cpp's llama-server, the runtime of the local model provider
# (app/localmodel), and llama-bench, llama.cpp's own benchmark that 'make
# bench' sets beside it, into DIR, once: a second run with everything in
# place does nothing.
#
# On Linux (x86-64; arm64 the same way, untested) only the two tools are
# compiled, against the libraries prebuilt in node-llama-cpp's platform
# package (@node-llama-cpp/linux-x64, pinned below, MIT, fetched from the
# npm registry with npm's own integrity check): llama.cpp's libllama and
# llama-common, ggml's libggml and libggml-base, and ggml's CPU backend
# once per x86-64 generation (libggml-cpu-x64, -sse42, -sandybridge,
# -haswell, ..., -zen4), of which ggml loads at start the best this CPU
# runs (GGML_BACKEND_DL), so the runtime runs on every x86-64 CPU. What the
# package lacks is compiled (prebuilt.cmake: the server, its multimodal
# library mtmd, its HTTP library, llama-bench), at -O1 (prebuilt.cmake says
# why): under 2 minutes on 2 idle cores instead of 12. Everything lands in DIR/bin, the libraries beside
# the executables (RUNPATH $ORIGIN), and the app's packages carry them so.
# The source is the llama.cpp release that the node-llama-cpp package
# ships as a git bundle, the release its platform packages are built from.
# It needs cmake, g++, git and npm: the web UI (whose prebuilt copy would
# be downloaded at build time), HTTPS (OpenSSL) and curl are off.
#
# Elsewhere (a Mac) the host build compiles all of llama.cpp from that
# source, statically, for the CPU family's baseline (GGML_NATIVE=OFF: on
# x86-64 ggml's baseline then uses AVX2, FMA and F16C), as the targets
# below do.
#
# LLAMA_TARGET=windows-amd64 cross-compiles llama-server.exe for the Windows
# installer instead, with Debian's mingw-w64 (g++-mingw-w64-x86-64-posix),
# from source (node-llama-cpp's Windows packages stop at an older release
# and are built with MSVC): linked statically (-static for the executable:
# GGML_STATIC alone leaves it importing the MinGW runtime DLLs; Windows' own
# are all it needs) and without OpenMP (ggml's own thread pool), for CPUs
# with AVX2 (about 5 minutes on 2 idle cores), into DIR (default
# ~/.cache/switchboard/llama-node-llama-cpp-<version>-windows-amd64).
# LLAMA_TARGET=macos-universal (on a Mac, with Xcode's command line tools)
# builds it for arm64 with Metal (the GPU of Apple silicon, its shaders
# embedded in the binary) and for x86_64 without (ggml's Metal backend is
# made for Apple silicon's unified memory; Intel Macs run it on the CPU), and
# joins the two with lipo, as the universal .app is.
#
#   build/llama/build.sh [DIR]   → DIR/bin/llama-server, DIR/bin/llama-bench,
#                                  (Linux) DIR/bin/lib*.so beside them,
#                                  DIR/src (the source, for its vocab files and licences)
#       default DIR: ~/.cache/switchboard/llama-node-llama-cpp-<version>-linux-x64
#       (-linux-arm64; elsewhere ~/.cache/switchboard/llama-node-llama-cpp-<version>)
#   LLAMA_TARGET=windows-amd64 build/llama/build.sh [DIR]   → DIR/bin/llama-server.exe
#   LLAMA_TARGET=macos-universal build/llama/build.sh [DIR]  → DIR/bin/llama-server
set -eu
NLC_VERSION=3.22.1 # node-llama-cpp; its llama/llama.cpp.info.json names the llama.cpp release
TARGET=${LLAMA_TARGET:-host}
case $TARGET in
host)
  # The platform package of node-llama-cpp whose libraries the tools link.
  prebuilt=""
  case "$(uname -s)/$(uname -m)" in
  Linux/x86_64 | Linux/amd64) prebuilt=linux-x64 ;;
  Linux/aarch64 | Linux/arm64) prebuilt=linux-arm64 ;;
  esac
  DIR=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard/llama-node-llama-cpp-$NLC_VERSION${prebuilt:+-$prebuilt}}
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
# Two builds of one DIR at once (make in two checkouts) would share DIR.new:
# the second waits for the first, then finds the runtime in place.
mkdir -p "$(dirname "$DIR")"
if command -v flock >/dev/null; then
  exec 9>"$DIR.lock"
  flock -n 9 || { echo "llama-server ($TARGET): waiting for the build of $DIR that is running (make test's prewarm, or another checkout)"; flock 9; }
fi
cached=yes
for o in $outputs; do [ -x "$DIR/bin/$o" ] || cached=no; done
# A prebuilt runtime is whole with its libraries (DIR appears whole: it is
# renamed from DIR.new at the end).
[ -z "${prebuilt:-}" ] || [ -f "$DIR/bin/libggml-base.so" ] || cached=no
if [ $cached = yes ] && { [ "$TARGET" != host ] || [ -f "$DIR/src/models/ggml-vocab-qwen2.gguf" ]; }; then
  exit 0
fi
for tool in $tools; do
  command -v "$tool" >/dev/null || { echo "build/llama/build.sh: $tool is missing (make deps-test installs cmake and g++; for Windows, apt install g++-mingw-w64-x86-64-posix)" >&2; exit 1; }
done
# Linux and Windows are unity builds: cmake compiles each target's sources
# in batches, in 35-41 % less CPU time (unity.cmake says why, and which files
# are compiled alone). The Mac builds are not: nobody has tried them there.
unity=$(cd "$(dirname "$0")" && pwd)/unity.cmake
case $TARGET/${prebuilt:-} in macos-universal/* | host/) unity="" ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "llama-server ($TARGET): fetching node-llama-cpp@$NLC_VERSION's llama.cpp source"
(cd "$tmp" && npm pack --silent "node-llama-cpp@$NLC_VERSION" >/dev/null && tar xzf "node-llama-cpp-$NLC_VERSION.tgz" package/llama)
git clone --quiet "$tmp/package/llama/gitRelease.bundle" "$tmp/src" 2>/dev/null
if [ -n "${prebuilt:-}" ]; then
  echo "llama-server ($TARGET): fetching @node-llama-cpp/$prebuilt@$NLC_VERSION's prebuilt libraries"
  mkdir "$tmp/prebuilt"
  (cd "$tmp/prebuilt" && npm pack --silent "@node-llama-cpp/$prebuilt@$NLC_VERSION" >/dev/null && tar xzf ./*.tgz)
  bins=$tmp/prebuilt/package/bins/$prebuilt
  [ -f "$bins/libggml-base.so" ] || { echo "build/llama/build.sh: @node-llama-cpp/$prebuilt@$NLC_VERSION has no bins/$prebuilt/libggml-base.so" >&2; exit 1; }
  echo "llama-server ($TARGET): building llama-server and llama-bench against them (under 2 minutes on 2 cores; once)"
  mv "$tmp/src/CMakeLists.txt" "$tmp/src/CMakeLists.llama.txt"
  cp "$(dirname "$0")/prebuilt.cmake" "$tmp/src/CMakeLists.txt"
  cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release "-DNLC_BINS=$bins" \
    ${unity:+-DCMAKE_UNITY_BUILD=ON "-DCMAKE_PROJECT_llama.cpp_INCLUDE=$unity"} >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log" >&2; exit 1; }
  cmake --build "$tmp/build" --target llama-server llama-bench -j "$(getconf _NPROCESSORS_ONLN)" >"$tmp/build.log" 2>&1 ||
    { tail -50 "$tmp/build.log" >&2; exit 1; }
  mkdir -p "$(dirname "$DIR")"
  rm -rf "$DIR.new"
  mkdir -p "$DIR.new/bin"
  for o in $outputs; do cp "$tmp/build/bin/$o" "$DIR.new/bin/"; done
  # The libraries, not node-llama-cpp's own addon (llama-addon.node).
  cp "$bins"/lib*.so "$DIR.new/bin/"
  mv "$tmp/src/CMakeLists.llama.txt" "$tmp/src/CMakeLists.txt"
  rm -rf "$tmp/src/.git"
  mv "$tmp/src" "$DIR.new/src"
  rm -rf "$DIR"
  mv "$DIR.new" "$DIR"
  echo "llama-server ($TARGET): $DIR/bin/llama-server"
  exit 0
fi
echo "llama-server ($TARGET): building (about 5 minutes on 2 cores; once)"
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
  build build $cross ${unity:+-DCMAKE_UNITY_BUILD=ON "-DCMAKE_PROJECT_llama.cpp_INCLUDE=$unity"}
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
