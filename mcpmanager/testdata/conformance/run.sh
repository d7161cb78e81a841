#!/usr/bin/env bash
# Runs the MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# mcpmanager/testdata/clients, on the Node 22 installed there), in two
# releases:
#   0.1.16 (revisions up to 2025-11-25, baseline.yml):
#     1. the server scenarios against 'switchboard serve --http' (serve/),
#     2. the client scenarios against Switchboard's mcpmanager (client/): the
#        2025-03-26 back-compat suite, then the core suite (initialize,
#        tools_call, elicitation defaults, sse-retry and every non-draft,
#        non-extension auth scenario);
#   0.2.0-alpha.12 (package conformance-2026, revision 2026-07-28,
#   baseline-2026.yml):
#     3. the server scenarios of 2026-07-28 that a relay can be tested on
#        (those that need the suite's own test tools cannot), and those of
#        the skills extension (SEP-2640), with a server serving skills
#        (mcpmanager/testdata/testserver, built as modernserver: the mode
#        it runs) behind the gateway, and again with only local skills
#        (skills/, copied into the data dir's own skills folder) behind it,
#     4. every client scenario 2026-07-28 requires ('--requirements'); the
#        extension scenarios it runs too are reported, not scored;
#     5. the client scenarios of the skills extension (SEP-2640), which no
#        revision requires: no prefetch, and verification on read.
# Exits non-zero when a scenario fails or a baseline is stale. The last line
# is the 2026-07-28 client run's own "Total: N passed, M failed, W warnings".
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
clients="$root/mcpmanager/testdata/clients/node_modules"
node="$clients/.bin/node"
cli="$clients/@modelcontextprotocol/conformance/dist/index.js"
cli26="$clients/conformance-2026/dist/index.js"
baseline="$here/baseline.yml"
baseline26="$here/baseline-2026.yml"
GO="${GO:-go}"

[ -x "$node" ] && [ -f "$cli" ] && [ -f "$cli26" ] || { echo "conformance: run 'npm ci' in mcpmanager/testdata/clients first (make test-go does)"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# One go build of the four programs, so they compile and link side by side;
# each is named after its directory, and the testserver serves the mode its
# name says.
(cd "$root" && "$GO" build -o "$work/" . ./mcpmanager/testdata/conformance/client ./mcpmanager/testdata/conformance/serve ./mcpmanager/testdata/testserver)
mv "$work/testserver" "$work/modernserver"

status=0
failed=()
echo "== server scenarios against 'switchboard serve --http' =="
serve() {
  "$work/serve" -switchboard "$work/switchboard" -node "$node" -conformance "$cli" -baseline "$baseline" \
    server-initialize ping tools-list dns-rebinding-protection &&
  "$work/serve" -switchboard "$work/switchboard" -node "$node" -conformance "$cli26" -baseline "$baseline26" \
    server-stateless tools-list resources-list prompts-list sep-2164-resource-not-found dns-rebinding-protection \
    caching http-header-validation server-sse-multiple-streams input-required-result-unsupported-methods \
    input-required-result-validate-input &&
  "$work/serve" -switchboard "$work/switchboard" -node "$node" -conformance "$cli26" -baseline "$baseline26" \
    -server "skills=$work/modernserver" \
    sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory &&
  "$work/serve" -switchboard "$work/switchboard" -node "$node" -conformance "$cli26" -baseline "$baseline26" \
    -skills "$here/skills" \
    sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory
}
# A failure is run once more, and a pass on the second try is reported as
# flaky so it stays visible; a second failure in a row fails the run. The
# flake seen until 2026-12-03 (the first request after a scenario that
# opened a subscriptions/listen stream "terminated" or never answered, about
# half the runs of the 2026-07-28 list on a quiet machine) was the harness
# proxy's, not serve's: serve/main.go now relays each request's body read
# whole (see there), and 10 runs in a row passed.
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
echo "== client scenarios required by revision 2026-07-28 against mcpmanager =="
"$node" "$cli26" client --command "$work/client" --requirements 2026-07-28 --expected-failures "$baseline26" 2>"$work/2026.err" | tee "$work/2026.out" || { status=1; failed+=("client requirements 2026-07-28"); cat "$work/2026.err"; }
echo "== client scenarios of the skills extension (SEP-2640) against mcpmanager =="
for sc in sep-2640-client-no-prefetch sep-2640-client-verify-digest sep-2640-client-verify-size sep-2640-client-verify-frontmatter; do
  "$node" "$cli26" client --command "$work/client" --scenario "$sc" --expected-failures "$baseline26" 2>"$work/$sc.err" | tee "$work/$sc.out" || { status=1; failed+=("client scenario $sc"); cat "$work/$sc.err"; }
done
echo
echo "backcompat suite: $(grep '^Total:' "$work/backcompat.out" || echo 'no result')"
echo "core suite (0.1.16): $(grep '^Total:' "$work/core.out" || { status=1; echo 'no result'; })"
# A failing step names itself here, since CI logs show only their tail.
[ ${#failed[@]} -eq 0 ] || echo "conformance: failed: ${failed[*]} (see its output above)"
grep '^Total:' "$work/2026.out" || { echo "Total: no result from the 2026-07-28 client run"; status=1; }
exit $status
