#!/usr/bin/env bash
# shards.sh N: runs the e2e suite as N harnesses side by side (run.mjs with
# E2E_SHARD=K/N), each under its own X display (xvfb-run, display numbers
# apart so two never race for one), its own D-Bus session with its own
# unlocked gnome-keyring in a throw-away directory, and its own app, model
# and remote server (run.mjs): no shard sees another's windows, keyring or
# chats, and no test touches the user's display or keyring. Each shard's
# output is kept in frontend/e2e/artifacts/shard-K.txt and printed whole
# when it ends; the exit code is the first failing shard's.
# The caller sets E2E_DEV_BIN (and SWITCHBOARD_BIN, SWITCHBOARD_LLAMA_*).
set -uo pipefail
n=${1:-2}
cd "$(dirname "$0")/.."
mkdir -p e2e/artifacts
declare -A pids
for k in $(seq 1 "$n"); do
  (
    kr=$(mktemp -d) && mkdir -m 700 "$kr/run" || exit 1
    trap 'rm -rf "$kr"' EXIT
    E2E_SHARD=$k/$n XDG_DATA_HOME=$kr/share XDG_RUNTIME_DIR=$kr/run \
      dbus-run-session -- sh -c 'printf switchboard-e2e | gnome-keyring-daemon --unlock --daemonize --components=secrets >/dev/null &&
        exec xvfb-run -a -n '$((90 + 20 * k))' -s "-screen 0 1280x900x24" node e2e/run.mjs'
  ) >"e2e/artifacts/shard-$k.txt" 2>&1 &
  pids[$k]=$!
done
rc=0
for k in $(seq 1 "$n"); do
  wait "${pids[$k]}"
  c=$?
  echo "=== e2e shard $k/$n (exit $c) ==="
  cat "e2e/artifacts/shard-$k.txt"
  [ "$rc" != 0 ] || rc=$c
done
exit "$rc"
