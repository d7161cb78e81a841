# MCP conformance suite (issue #5): the Makefile includes this fragment.
#   make conformance   server scenarios against 'switchboard serve --http',
#                      client scenarios against mcpmanager; ends with the
#                      suite's own "Total: N passed, M failed" line.
.PHONY: conformance
conformance: $(TEST_CLIENTS)/node_modules/.package-lock.json
	GO=$(GO) mcpmanager/testdata/conformance/run.sh
