// Package gateway re-exposes a registry as one MCP server, so any other MCP
// host can use every tool Switchboard manages (switchboard serve).
//
// See Example: New, Watch to republish whenever the registry changes, and
// ServeStdio for a host on the other end of a pipe.
//
// Tools keep their exposed names (server__tool, unique across the registry),
// descriptions, schemas and annotations; calls are routed through the
// registry with its timeouts to the server and tool each name was published
// for. The gateway answers initialize at once: tools appear as their servers
// become ready (a server whose listing failed or timed out is listed again
// when the router says to, router.RelistWait, and appears then), and
// clients get notifications/tools/list_changed whenever
// the published definitions change in any way (a tool added, removed, or
// its description, schemas or annotations changed). tools/list waits for
// servers still starting (Options.Settled), up to StartupWait, so a client
// that lists right after initialize sees every server that starts quickly;
// Options.ToolsListed lets tools/list not wait for a server whose tools are
// known from its last run ('switchboard serve': mcpmanager.Manager.WaitListed):
// the router offers those while it starts, and a call of one waits for it
// (router.Recaller); skills still wait for it. The lists of prompts,
// resources and templates wait for it too, but ContentWait (a second) at
// most once a tools/list has been answered, and what comes later reaches
// clients as list_changed: clients ask them with tools/list and count the
// gateway connected only once all are answered.
// A call of a tool not published yet waits until it is (its own server is
// up), or for the same start-up wait, not for the other servers.
//
// Prompts are published as server__prompt (unique like tool names) and
// resources and resource templates as switchboard://SERVER/URI (see
// ExposedURI); prompts/get and resources/read go back to their server,
// and a server's prompts or resources list_changed reaches clients.
// CreateMessage and Elicit pass a server's sampling and elicitation
// requests on to the client whose call they belong to, or to nobody
// (origins.go, requests.go); whose call that is, the router decides
// (router.Tie), by one rule for the gateway's clients and the window's
// chats alike.
//
// Options.Sees narrows what each app sees to the servers chosen for it:
// every list leaves the other servers' tools, prompts, resources,
// templates and skills out, and a call, get or read of one is refused
// saying why (hidden.go). ChoiceChanged sends one app's sessions, and no
// other's, the list_changed notifications when its choice changes
// (appsessions.go).
//
// ServeStdio is the stdio transport ('switchboard serve' runs it): it serves
// a plain tools/call without mcp-go's stdio server's extra goroutine hops
// and decodes, relaying the result undecoded (see BENCHMARKS.md);
// HTTPHandler serves Streamable HTTP ('switchboard serve --http'); a
// notification of a 2026-07-28 client that names no protocol version in
// its _meta (the Go SDK's notifications/cancelled) takes its
// MCP-Protocol-Version header's, as does its request of a method that
// revision removed (the Go SDK's ping and logging/setLevel), answered 404
// (-32601) as removed, and OAuth's discovery and registration
// paths answer 404: the gateway takes a bearer token, no OAuth login. On
// stdio, a call's progress is written before its result on either path.
// Both
// run every tools/call through one function (callTool, call.go): the same
// argument check, URL-elicitation retry, output-schema check and link
// rewriting (links.go) whichever transport a call came on.
//
// # What another host sees
//
// To use Switchboard's servers from another host (Claude Desktop, Cursor...), point it at
// `switchboard serve`:
//
//	{"mcpServers": {"switchboard": {"command": "/path/to/switchboard", "args": ["serve"]}}}
//
// `serve` answers the host's `initialize` at once and publishes each server's tools as it
// becomes ready: `tools/list` waits up to 10 s for servers still starting, then answers with
// the ready ones — and with those still starting whose tools it knows from their last run with
// the same entry, without waiting for them (a call of one waits for its server) — and every later change — a server ready, restarted or stopped, or a
// server's own `tools/list_changed` changing any tool's name, description, schemas or
// annotations — reaches the host as `notifications/tools/list_changed`. Every server's prompts
// are offered too, as `server__prompt` (unique like tool names), and its resources and resource
// templates as `switchboard://SERVER/URI` (the server's own URI after the server's name, so two
// servers' `file:///README.md` stay apart) — their lists wait for servers still starting as
// `tools/list` does, but a second at most once `tools/list` is answered, and the rest arrives as
// list_changed; `prompts/get` and `resources/read` go back to that
// server, and a server's prompt or resource list change reaches the host as
// `notifications/prompts/list_changed` / `notifications/resources/list_changed`. A server's
// sampling (`sampling/createMessage`) or elicitation request, made while `serve` runs, goes to
// the host whose call it came from when that host declared `sampling` (`sampling.tools` for a request
// offering tools) or `elicitation` (`elicitation.url` for URL mode) in its `initialize`; the
// host's answer goes back to the server. Without such a host it is declined, as before. A stdio
// server's request names no call: it goes to the one host calling that server (however many of
// its calls run there; a 2026-07-28 host gets it as the input_required result of its oldest
// call still running), and is declined while several hosts call it, or for 10 s after another
// host's call on it ended (a server that asks after its call returned would otherwise ask the
// next host about the last one's), with words that say to call the tool again when nothing else
// uses the server. A 2026-07-28 host over HTTP keeps no session: its calls are one host's while
// they come on one connection, so its calls side by side (a connection each) count as several
// hosts. A server that hangs
// never holds up the others; the servers that did not start are listed on stderr once all
// have settled.
package gateway
