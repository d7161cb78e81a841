#!/bin/sh
# prewarm-package.sh: does ahead what 'make test-package' needs and no
# other step of 'make test' does, so that the packages step finds it done
# (and then what the builds step compiles, see the end):
# the Windows app's Go packages, and the clean Debian root the .deb is
# installed into (build/linux/test-deb.sh --base: debootstrap, mostly
# downloading and unpacking, about 1.5 minutes the first time). The
# packages are compiled into Go's build cache with the flags 'wails build
# -platform windows/amd64' gives them (its tags, no cgo; GOFLAGS carries
# -trimpath), so its build compiles only the main package. 'make test' runs
# it at idle priority (build/idle.sh) from its start. Each part is a no-op
# when cached; a part that fails here is done again by the packages step, in
# the foreground, where its error shows. SUDO is how make runs root's
# commands ('sudo', or empty as root); here it must not ask for a password
# (sudo -n): without one, the packages step makes the root. TAGS are the
# Linux build's (the Makefile's).
set -u
GO=${GO:-go}
SUDO=${SUDO:-}
TAGS=${TAGS:-webkit2_41}
tags=desktop,production
start=$(date +%s)
# The root first: it waits on the network and the disk more than on a CPU.
root() {
  if [ -n "$SUDO" ]; then $SUDO -n "$(dirname "$0")/linux/test-deb.sh" --base; else "$(dirname "$0")/linux/test-deb.sh" --base; fi
}
root || echo "prewarm: the clean Debian root was not made (the packages step makes it)"
echo "prewarm: the clean Debian root after $(($(date +%s) - start)) s"
# app_packages TAGS [VAR=VALUE...]: compiles every package the app imports
# with TAGS (in that environment) but main, which embeds frontend/dist (made
# by a later step).
app_packages() {
  t=$1
  shift
  pkgs=$(env "$@" "$GO" list -e -deps -tags "$t" -f '{{if ne .Name "main"}}{{.ImportPath}}{{end}}' .)
  # shellcheck disable=SC2086 # import paths are words
  env "$@" "$GO" build -tags "$t" $pkgs
}
app_packages "$tags" GOOS=windows GOARCH=amd64 CGO_ENABLED=0 || echo "prewarm: the Windows app's packages failed (the packages step builds them again)"
echo "prewarm: the Windows app's packages after $(($(date +%s) - start)) s"
# Then, for the builds step (make build, the e2e build), what it compiles
# that the tests before it do not: the pinned Wails CLI and actionlint ('go
# tool' keeps their executables in the build cache), and the app's packages
# with the tags of make build (desktop,production) and of the e2e build
# (dev), whose cgo parts differ by tag. By then the tests have compiled the
# rest, so this runs on the CPU the last tests leave idle (about 3 minutes of
# one core on a fresh machine).
"$GO" tool wails version >/dev/null || echo "prewarm: the Wails CLI failed (make build builds it again)"
"$GO" tool actionlint -version >/dev/null || echo "prewarm: actionlint failed (the packages step builds it again)"
for t in "desktop,production,$TAGS" "dev,$TAGS"; do
  app_packages "$t" || echo "prewarm: the app's packages ($t) failed (the builds step builds them again)"
done
echo "prewarm: the builds step's tools and packages after $(($(date +%s) - start)) s"
