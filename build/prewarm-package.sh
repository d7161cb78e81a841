#!/bin/sh
# prewarm-package.sh LLAMA_WIN_DIR: does ahead what the Windows package
# needs and no other step of 'make test' does, so that 'make test-package'
# finds it done: the Windows app's Go packages and the Windows runtime
# (build/llama/build.sh, llama.cpp cross-compiled: about 7 minutes of 2
# cores the first time). The packages are compiled into Go's build cache with the flags
# 'wails build -platform windows/amd64' gives them (its tags, no cgo; GOFLAGS
# carries -trimpath), so its build compiles only the main package. 'make
# test' runs it at idle priority (build/idle.sh) from its start. Each part
# is a no-op when cached; a part that fails here is done again by the
# packages step, in the foreground, where its error shows.
set -u
dir=${1:?usage: prewarm-package.sh LLAMA_WIN_DIR}
GO=${GO:-go}
tags=desktop,production
start=$(date +%s)
# Every package the app imports but main, which embeds frontend/dist (made
# by a later step).
pkgs=$(GOOS=windows GOARCH=amd64 CGO_ENABLED=0 "$GO" list -e -deps -tags "$tags" -f '{{if ne .Name "main"}}{{.ImportPath}}{{end}}' .)
# shellcheck disable=SC2086 # import paths are words
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 "$GO" build -tags "$tags" $pkgs || echo "prewarm: the Windows app's packages failed (the packages step builds them again)"
echo "prewarm: the Windows app's packages after $(($(date +%s) - start)) s"
# Then the runtime: the packages step waits on build.sh's lock for it, but
# not for the packages above, so they go first (a compile of them still
# running then would be done twice).
LLAMA_TARGET=windows-amd64 "$(dirname "$0")/llama/build.sh" "$dir" || echo "prewarm: the Windows runtime failed (the packages step builds it again)"
echo "prewarm: the Windows runtime after $(($(date +%s) - start)) s"
