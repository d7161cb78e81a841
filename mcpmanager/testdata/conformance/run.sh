#!/usr/bin/env bash
# Runs the MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# mcpmanager/testdata/clients, on the Node 22 installed there):
#   1. the server scenarios against 'switchboard serve --http' (serve/),
#   2. the client scenarios against Switchboard's mcpmanager (client/): the
#      2025-03-26 back-compat suite, then the core suite (initialize,
#      tools_call, elicitation defaults, sse-retry and every non-draft,
#      non-extension auth scenario).
# Exits non-zero when a scenario fails or baseline.yml is stale. The last line
# is the core client suite's own "Total: N passed, M failed, W warnings".
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
clients="$root/mcpmanager/testdata/clients/node_modules"
node="$clients/.bin/node"
cli="$clients/@modelcontextprotocol/conformance/dist/index.js"
baseline="$here/baseline.yml"
GO="${GO:-go}"

[ -x "$node" ] && [ -f "$cli" ] || { echo "conformance: run 'npm ci' in mcpmanager/testdata/clients first (make test-go does)"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$root" && "$GO" build -o "$work/switchboard" . && "$GO" build -o "$work/client" ./mcpmanager/testdata/conformance/client && "$GO" build -o "$work/serve" ./mcpmanager/testdata/conformance/serve)

status=0
failed=()
echo "== server scenarios against 'switchboard serve --http' =="
serve() {
  "$work/serve" -switchboard "$work/switchboard" -node "$node" -conformance "$cli" -baseline "$baseline" \
    server-initialize ping tools-list dns-rebinding-protection
}
# One CI run failed here once with nothing to show why (its log kept only the
# tail); a second failure in a row fails the run, a pass on the second try is
# reported as flaky so it stays visible.
if ! serve; then
  echo "conformance: the server scenarios failed; running them once more to tell a flake from a failure"
  if serve; then
    echo "conformance: FLAKY: the server scenarios passed on the second try (first failure above)"
  else
    status=1; failed+=("server scenarios")
  fi
fi

# The suite writes result directories into the working directory.
cd "$work"
for suite in backcompat core; do
  echo "== client suite '$suite' against mcpmanager =="
  "$node" "$cli" client --command "$work/client" --suite "$suite" --expected-failures "$baseline" 2>"$work/$suite.err" | tee "$work/$suite.out" || { status=1; failed+=("client suite $suite"); cat "$work/$suite.err"; }
done
echo
echo "backcompat suite: $(grep '^Total:' "$work/backcompat.out" || echo 'no result')"
# A failing step names itself here, since CI logs show only their tail.
[ ${#failed[@]} -eq 0 ] || echo "conformance: failed: ${failed[*]} (see its output above)"
grep '^Total:' "$work/core.out" || { echo "Total: no result from the core suite"; status=1; }
exit $status
