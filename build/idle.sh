#!/bin/sh
# idle.sh LOG CMD [ARG...]: starts CMD in the background at idle priority
# and returns at once: CMD runs on CPU time nothing else wants. CMD's
# output goes to LOG, and its input, output and error are none of the
# caller's, so a pipe the caller writes to (CI's log) does not stay open
# until CMD ends. 'make test' starts the packages step's long builds with
# it (see the Makefile's prewarm-package).
#
# Idle priority takes three settings, because CMD runs in a session of its
# own (setsid), and Linux's autogroup scheduling (sched_autogroup_enabled,
# on in Debian's kernels) shares the CPU between sessions first and only
# then between the processes of a session by their policy and nice: a
# SCHED_IDLE, nice 19 build in its own session took half of a 2-core
# machine from make test's compiles, as any other session would. So the
# new session's autogroup gets nice 19 too (/proc/self/autogroup: ~1.5% of
# a CPU while another session wants it, all of it otherwise); SCHED_IDLE
# and nice 19 do the same where there is no autogroup (a systemd cgroup).
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
# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
nohup setsid sh -c '{ echo 19 >/proc/self/autogroup; } 2>/dev/null || true; exec "$@"' idle "$@" </dev/null >"$log" 2>&1 &
echo "started in the background at idle priority: $* (log: $log)"
