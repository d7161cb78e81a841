#!/bin/bash
# windowlibs.sh: the window's shared libraries, which a Linux x86-64 build
# loads when the window opens (app/windowlibs) rather than naming them as
# NEEDED, so the packaging asks this script for them instead of the binary.
#
#   windowlibs.sh            prints their sonames, one a line (from the stubs' table)
#   windowlibs.sh --check B  fails when binary B, on x86-64, still names a
#                            library but glibc's as NEEDED (the stubs lack a
#                            function: make windowlibs-stubs writes them again)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
table=$repo/app/windowlibs/table_linux_amd64.c

sonames() { sed -n 's/^\t"\(lib[^"]*\.so[^"]*\)",$/\1/p' "$table"; }

if [ "${1:-}" = --check ]; then
  bin=${2:?usage: windowlibs.sh --check BIN}
  [ "$(uname -m)" = x86_64 ] || exit 0
  extra=$(objdump -p "$bin" | awk '$1 == "NEEDED" {print $2}' | grep -Ev '^(libc|libm|libdl|libpthread|librt|libresolv)\.so|^ld-linux' || true)
  if [ -n "$extra" ]; then
    echo "windowlibs: $bin names these libraries as NEEDED, so every command loads them: $(echo $extra)." >&2
    echo "windowlibs: the window's code calls functions the stubs lack; run 'make windowlibs-stubs' and commit app/windowlibs." >&2
    exit 1
  fi
  exit 0
fi
sonames
