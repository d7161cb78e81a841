#!/bin/sh
# idle.sh LOG CMD [ARG...]: starts CMD in the background at idle priority
# (the SCHED_IDLE policy and nice 19: it runs on CPU time nothing else
# wants) and returns at once. CMD's output goes to LOG, and its input,
# output and error are none of the caller's, so a pipe the caller writes to
# (CI's log) does not stay open until CMD ends. 'make test' starts the
# packages step's long builds with it (see the Makefile's prewarm-package).
set -eu
log=${1:?usage: idle.sh LOG CMD [ARG...]}
shift
mkdir -p "$(dirname "$log")"
# chrt is util-linux's (every Debian has it); where it is missing or the
# policy is refused, nice alone.
if command -v chrt >/dev/null && chrt --idle 0 true 2>/dev/null; then
  set -- chrt --idle 0 nice -n 19 "$@"
else
  set -- nice -n 19 "$@"
fi
nohup setsid "$@" </dev/null >"$log" 2>&1 &
echo "started in the background at idle priority: $* (log: $log)"
