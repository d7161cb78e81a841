// Package supervisor keeps one MCP server running: it starts the stdio
// process, opens the remote connection (Streamable HTTP or SSE, with the
// server's OAuth token) or builds an in-process server (a built-in, through
// mcp-go's in-process transport), runs the MCP handshake within a time
// limit, watches the session, and restarts it with exponential backoff when
// it dies, up to a limit. A remote server that refuses its token stops in
// NeedsLogin until the user logs in (oauth.Authorizer.Login) and it is
// started again. Every transport reports the same states and keeps its log
// the same way.
//
// See Example: New with the spec and where to report states, Run until
// the context ends, and Client for the ready session.
//
// A Server is safe for concurrent use. Run must be called once.
//
// # How servers are run
//
// The window starts your configured servers once its first page is on screen (or 3 s after
// launch if the web view never says so), so starting many Node or Python servers does not
// slow the window down; the built-in servers run from the start. A server that is ready
// answers at once: listing tools or calling one never waits for a server still starting.
// Servers' stdio messages are read with one pass over each (validated and split at once) and
// a relayed call's large arguments and results cross `switchboard serve` as the bytes that came.
//
// Each stdio server runs in its own process group and, on Linux when the app's own cgroup
// (v2) lets this user create cgroups and move processes into them (as root, or in a cgroup
// delegated to the user such as a systemd user service), in its own cgroup. Stopping,
// disabling or quitting a server closes its stdin, then (2 s later) sends SIGTERM, then (2 s
// later) SIGKILL, and once the server has exited SIGKILLs whatever it left behind. In a
// cgroup that is every process it started, even one that left with `setsid` or daemonized;
// without a cgroup (Linux) it is the process group plus every descendant found by parent PID
// in `/proc` while stopping, plus every process whose environment carries the server's
// `SWITCHBOARD_PROCESS_TREE` mark (each server started on Linux gets one, and its
// descendants inherit it), so a daemon whose parent exited before the stop began is found
// too — unless it cleared its environment. On macOS and the BSDs it is the process group (a
// `setsid` descendant survives); on Windows, where there are no signals, the SIGTERM and
// SIGKILL stages are both `taskkill /T /F`, which ends the server and its descendants. If the
// app itself is killed, a small watchdog process (Linux, macOS, the BSDs) ends every process
// group and every server cgroup, and on Linux every process carrying one of the app's marks.
// Commands are looked up on your login shell's `PATH` (GUI apps do not get it otherwise), and
// a missing `npx`/`uvx`/`docker` says what to install. Before an `npx`, `uvx` or `docker run`
// server first starts, its package is fetched as a step of its own (`npx --package=PKG -- node
// --version`, `uvx --with PKG python -c pass`, `docker pull IMAGE`): the server shows
// Installing with the package manager's last line and the time so far, limited by
// Settings → Servers → Download time limit (5 minutes by default; `settings.servers.
// downloadTimeoutSeconds`). A server added or imported in the window is fetched in the
// background at once, and a server starting meanwhile waits for that same download. Only
// then does the MCP handshake start, bounded by the entry's `"startupTimeout"` (milliseconds;
// 30 s by default) — a cold `npx -y` download never counts against it. Crashes are restarted with exponential backoff (5 attempts unless the
// config's `restart` says otherwise), then the server stays in error with its last stderr
// lines. A remote server that was connected and then went from the network (its address
// refuses connections, does not answer or no longer resolves, a gateway in front answers 502,
// 503 or 504, its connection was lost or it stopped answering pings: a network down, a laptop
// asleep, a server being redeployed) is tried again past those attempts, every 30 s at most,
// until it is back — unless its `restart` is off; one whose address never worked stops after
// them. A server that fails its first start has answered for now: `tools list`, `servers
// test` and a saved form report that failure (a server that hangs in its handshake, after
// about its `startupTimeout`: it gets 100 ms after its stdin closes, not the 2 s a ready server
// gets to shut down) while the restarts go on behind. Ready servers are pinged every few
// minutes and restarted if they stop answering.
// A stdio server that exits while it starts and whose arguments (or working directory) name an
// absolute path that surely is wrong says so first: *its arguments name /home/me/${userHome}/Projects,
// which does not exist; correct the path in the server's settings (Edit)*, the exit status and
// stderr behind it. Surely wrong is a path that holds a `${…}` nothing replaced, whose folder is
// missing too, or that the server's stderr says is missing (ENOENT, "No such file"); a file that is
// not there yet in a folder that is (a SQLite database, a memory file the server would create) is
// not blamed, and the error is the exit and stderr's last lines, as for any crash. A `"roots"` entry that is the whole disk (`"/"`) is refused when the config
// is read (import, Edit, config.json), not only when the server starts.
// Tool calls time out after `defaultToolTimeout` (60 s by default) with an error naming
// the server. A call whose stdio server stops before it answers says so, how and what
// follows (StoppedError): *everything stopped during the call (killed by signal 9);
// Switchboard is restarting it — call again*, or that it is not restarted, or that
// Switchboard stopped it — in the chat, `tools call` and to the apps of `switchboard serve`. A tool name a server lists twice is used once (the first), with a warning
// naming it among the server's errors (Tools page, `tools list`); a tool list that never
// ends — a cursor that comes back, or more than 100 pages — stops with an error naming the
// server. One message from a server — a line on a stdio server's stdout, an event or a
// JSON body from a remote one — may be at most 64 MB and is never buffered past that: the
// request fails with an error naming the limit, and a stdio server is stopped and restarted
// like a crashed one. `switchboard serve` bounds the lines on its own stdin the same way,
// and a request body over `--http` too (a longer one is refused with 413 naming the limit);
// it handles at most 64 messages of a client at once and reads no more until one is answered,
// so a client that sends without reading the answers is held back by its own pipe; a
// `tools/call` whose `arguments` are not an object is answered with a tool error saying so;
// a second call under the id of a call still running is refused (the first stays
// cancellable); and a tool only an app may call (`_meta.ui.visibility: ["app"]`) is listed
// only to a client that declared the MCP Apps extension, and calling it by name from
// another client is refused as a tool not listed. A
// handshake that times out says how long no complete message came and how many bytes of one
// were pending; a remote server that accepted the connection and never answered says so,
// naming its URL, within the same `startupTimeout` (every step of opening counts: the HTTP
// answer, SSE's endpoint event, the handshake), and is not tried again over SSE. A remote
// server that refuses with a 403, or with a 401 that offers no OAuth login (no Bearer
// challenge, no OAuth metadata), shows its status and its own message and which header to add
// to `headers`; it is not tried over SSE nor restarted. A header that still holds a `${…}`
// nothing filled in (a VS Code `${input:ID}` given no value, a `${VAR}` written straight into
// config.json) is never sent: the server does not start, and its error names the header and
// how to fill it in. A call whose remote server's connection is lost before it answers (the
// server stopped, its stream ended) says so and what follows (LostError): *the connection to
// NAME was lost during the call (nothing listens at its address any more); Switchboard is
// reconnecting — call again*. When a Streamable HTTP server forgets
// the session (a 404 for its `Mcp-Session-Id`: restarted, redeployed — or a 400 saying it knows
// no such session, as server-everything and the servers built from the TypeScript SDK's
// examples answer), a new session starts at once, counted as no restart, and the request that
// met it is sent again on it. mcp-go's
// own log lines go to the server's log (logger `mcp-go`), never to the terminal. Stderr of each server is kept in memory (last 200 lines) and in
// `logs/<server>.log` (1 MiB, rotated once).
package supervisor
