#!/bin/sh
# Builds llama.cpp's llama-server, the runtime of the local model provider
# (app/localmodel), into DIR (default ~/.cache/switchboard/llama-<version>),
# once: a second run with the binary in place does nothing.
#
# The source is the llama.cpp release that the node-llama-cpp npm package
# ships as a git bundle (MIT; pinned below), fetched from the npm registry
# with npm's own integrity check. It needs cmake and g++ and nothing else:
# the web UI (whose prebuilt copy would be downloaded at build time), HTTPS
# (OpenSSL) and curl are off, and it is built for any x86-64 CPU, not the
# build machine's (GGML_NATIVE=OFF). About 20 minutes on 2 cores.
#
#   build/llama/build.sh [DIR]   → DIR/bin/llama-server, DIR/src (the source, for its vocab files)
set -eu
NLC_VERSION=3.22.1 # node-llama-cpp; its llama/llama.cpp.info.json names the llama.cpp release
DIR=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/switchboard/llama-node-llama-cpp-$NLC_VERSION}
if [ -x "$DIR/bin/llama-server" ] && [ -f "$DIR/src/models/ggml-vocab-qwen2.gguf" ]; then
  exit 0
fi
for tool in cmake g++ git npm; do
  command -v "$tool" >/dev/null || { echo "build/llama/build.sh: $tool is missing (make deps-test installs it)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "llama-server: fetching node-llama-cpp@$NLC_VERSION's llama.cpp source"
(cd "$tmp" && npm pack --silent "node-llama-cpp@$NLC_VERSION" >/dev/null && tar xzf "node-llama-cpp-$NLC_VERSION.tgz" package/llama)
git clone --quiet "$tmp/package/llama/gitRelease.bundle" "$tmp/src" 2>/dev/null
echo "llama-server: building (about 20 minutes on 2 cores; once)"
cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF \
  -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF \
  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF >"$tmp/cmake.log" 2>&1 \
  || { cat "$tmp/cmake.log" >&2; exit 1; }
cmake --build "$tmp/build" --target llama-server -j "$(nproc)" >"$tmp/build.log" 2>&1 || { tail -50 "$tmp/build.log" >&2; exit 1; }
mkdir -p "$(dirname "$DIR")"
rm -rf "$DIR.new"
mkdir -p "$DIR.new/bin"
cp "$tmp/build/bin/llama-server" "$DIR.new/bin/"
rm -rf "$tmp/src/.git"
mv "$tmp/src" "$DIR.new/src"
rm -rf "$DIR"
mv "$DIR.new" "$DIR"
echo "llama-server: $DIR/bin/llama-server"
