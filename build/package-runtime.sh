#!/bin/bash
# package-runtime.sh PACKAGE...: each package carries the local model
# runtime where the app looks for it (localmodel.FindRuntime) and no model:
# a .deb or .tar.gz usr/lib/switchboard/llama-server (beside usr/bin/switchboard,
# one directory up) with its libraries beside it, the Windows installer llama-server.exe beside
# switchboard.exe. Run by 'make test-package' and by 'make package' on the
# Windows installer it makes; lists the installer with 7z (p7zip-full),
# which reads NSIS archives. --without-runtime checks the app and that no
# model is there, not the runtime: make test's Windows installer is built
# without it (see the Makefile's package section).
set -euo pipefail
fail=0
runtime=yes
if [ "${1:-}" = --without-runtime ]; then
  runtime=no
  shift
fi
for pkg in "$@"; do
  case $pkg in
  *.deb) files=$(dpkg-deb -c "$pkg" | awk '{print $NF}'); want=./usr/lib/switchboard/llama-server app=./usr/bin/switchboard ;;
  *.tar.gz) files=$(tar tzf "$pkg"); want=./usr/lib/switchboard/llama-server app=./usr/bin/switchboard ;;
  *.exe) files=$(7z l -slt "$pkg" | sed -n 's/^Path = //p' | tr '\\' /); want=llama-server.exe app=switchboard.exe ;;
  *) echo "package-runtime: $pkg: not a package it knows" >&2; exit 2 ;;
  esac
  name=$(basename "$pkg")
  if ! grep -qxF "$app" <<<"$files"; then echo "package-runtime: $name has no $app"; fail=1
  elif [ $runtime = no ]; then echo "package-runtime: $name carries $app (and is not asked for the local model runtime: --without-runtime)"; fi
  if [ $runtime = yes ]; then
    if grep -qxF "$want" <<<"$files"; then echo "package-runtime: $name carries the local model runtime ($want)"
    else echo "package-runtime: $name lacks the local model runtime: no $want"; fail=1; fi
  fi
  if [ $runtime = yes ] && [[ $pkg != *.exe ]]; then
    # The Linux runtime's libraries beside it, ggml's CPU backends among
    # them: the baseline one (any x86-64 CPU), SSE4.2's and AVX2's.
    for lib in libggml-base.so libggml-cpu-x64.so libggml-cpu-sse42.so libggml-cpu-haswell.so libllama-common.so; do
      grep -qxF "$(dirname "$want")/$lib" <<<"$files" || { echo "package-runtime: $name lacks $lib beside $want"; fail=1; }
    done
    echo "package-runtime: $name carries $(grep -c "^$(dirname "$want")/libggml-cpu-.*\.so$" <<<"$files") CPU backends of ggml beside it"
  fi
  if [[ $pkg == *.exe ]] && grep -qxF "$want" <<<"$files"; then
    # Statically linked: it may import Windows' own DLLs only (a MinGW
    # runtime DLL would be missing on the user's machine).
    exe=$(mktemp)
    7z e -so "$pkg" "$want" >"$exe"
    dlls=$(objdump -p "$exe" 2>/dev/null | sed -n 's/^\s*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u)
    rm -f "$exe"
    [ -n "$dlls" ] || { echo "package-runtime: $name: cannot read the DLLs $want imports"; fail=1; }
    for d in $dlls; do
      case $d in
      kernel32.dll | advapi32.dll | ws2_32.dll | msvcrt.dll | user32.dll | shell32.dll | ole32.dll | bcrypt.dll | api-ms-win-*.dll) ;;
      *) echo "package-runtime: $name: $want imports $d, which Windows does not have"; fail=1 ;;
      esac
    done
    echo "package-runtime: $name: $want imports Windows DLLs only ($(echo $dlls))"
  fi
  if grep -qi '\.gguf$' <<<"$files"; then echo "package-runtime: $name carries a model, which must be downloaded on request instead:"; grep -i '\.gguf$' <<<"$files"; fail=1; fi
done
exit $fail
