// Package gui is the window's front door: one Wails-bound struct per page,
// each in a file named for it (ServersPage in serverspage.go, ChatPage in
// chatpage.go, MCPApps in mcpapps.go, …), with thin methods that call the
// host (app/host) and return views for the frontend, plus the events the
// window emits (events.go). The logic lives in app/host, which the CLI
// (app/cli) calls too.
//
//	w := gui.New(signalCtx, dir)
//	wails.Run(&options.App{OnStartup: w.Startup, OnShutdown: w.Shutdown, Bind: gui.Bindings(w)})
//
// Window holds what every page shares (Info, Ready, ConfigError, About) and
// the pages; Startup and Shutdown are Wails lifecycle hooks (Wails does not
// expose them to the frontend when they are passed as OnStartup/OnShutdown).
// The pages share one unexported core (core.go): the host, the questions
// put to the user (approvals.go), the goroutines of running turns (the
// host opens the chat history, wires the engine and tracks the turns:
// host.Chats) and terminals.
//
// The package is not named "window": Wails exports a Go package as a
// TypeScript namespace, and one named window would shadow the browser's.
//
// Bound methods are safe for concurrent use: Wails calls them from many goroutines.
//
// # The Chat page
//
// Chat with any model, using the tools of your MCP servers: answers stream in as
// Markdown (tables, highlighted code with Copy); each tool call is a card with
// its server, arguments, result and duration — the result's text, then its
// images (thumbnails that open larger), audio (a player) and embedded
// resources (URI and text, or type and size), "(no text; 1 image)" when it has
// no text; a card is sent up to 4 MB of such data (MaxCardMedia), past that a
// line saying its size — and, while it runs, how far its server says it is (a
// bar, or the message and count); calls that may change things ask
// first in an approval card showing the exact arguments (allow once / for this
// chat / deny); servers' forms (elicitation) appear as forms with their
// defaults, and their sampling requests (a server asking your model something)
// follow Settings → Chat → Sampling: ask (the default; a card shows the exact
// request), allow the first few per chat without asking, or deny; a server may
// ask only while one of its own tool calls runs, at most 10 times a minute, and
// with `maxTokens` cut to the model's output limit (4096 when it is not known) —
// each refused request shows a line in the chat saying why. Per chat: provider
// and model (the provider's list, or type any name), which servers and tools are
// on (the Tools menu says whether the model gets `find_tools` instead, and why:
// "Tool search is on: 320 tools ≈ 116k tokens, more than a quarter of this
// model's 128k context"), export as Markdown or JSON (copy it, or Save to file…
// through the system's save dialog), and a context meter (how much of the
// model's context window the next request takes and of what; near the limit the
// earlier messages are summarised into a collapsed summary message, and Compact
// now does it on demand; a tool result too long for the window is marked
// *capped* and says which lines the model saw — see "Chat and approvals" in app/chat). Chats
// are kept in `history.db`, listed and searched (full text) on the left; what another
// process writes there (`switchboard chat --chat ID` going on with the chat shown, a chat it
// starts or renames) shows within about a second, a turn still running there as far as it is
// stored (EventChatsChanged, host.FollowChats); rename,
// delete (asks first); a chat answering, or waiting for your answer, is marked in
// the list (from the Go side's running turns too, when the window loads mid-turn). A search hit opens its chat at the message (marked for a moment; the
// later messages load as you scroll down), and a round ↓ goes back to the end
// whenever you are more than a screen from it. New chat goes on with the open
// chat's provider and model (else the last chat's); on a chat that has no message
// yet it makes no other, and an untitled chat left without a message is deleted
// and never listed. A rate limit's wait counts down to the retry, and its Retry now asks at once. A chat opens at its last 30 messages and loads 50 more
// each time you scroll to the top (the message you were reading stays in place);
// a long chat keeps only the messages near the view in the page (and those whose
// tool cards show an MCP App, so an app is never dropped while you scroll), so a
// chat of thousands of messages opens as fast as a short one. Enter sends,
// Shift+Enter is a new line, Esc (or the Stop button beside Send) stops the
// answer and every tool call in flight. Under each message (shown on hover or
// keyboard focus, always on the last one): Copy puts an answer's raw Markdown on
// the clipboard; Retry asks the model again for the last answer, and the new
// answer replaces it and its tool calls; Edit (or ↑ in the empty composer, for
// your last message) lets you change one of your messages and resend it — the
// later messages are *replaced, not kept as a branch*: resending an earlier
// message first asks, then deletes everything after it from `history.db` in one
// transaction (editing your last message just replaces its answer), and Esc
// cancels the edit. A provider error says in plain words what happened and what
// to do ("refused the API key; check it in Settings → Models", rate limited,
// not reachable at its URL, no such model…), with the technical detail behind a
// disclosure, and offers Retry
//
// # The Servers page
//
// Your MCP servers with live status badges, tool counts, errors and stderr log;
// each with a description (yours, else what the server says about itself in
// `initialize`), tags, docs link, colour / icon and what uses it (agents,
// chats), edited under Details (also its skills — name, description, size and an
// on/off switch for the chats, see "MCP client features" in mcpmanager —, its per-profile URL,
// arguments and environment, and its sandbox: on / off, network, folders it may
// read and write, its roots; a sandboxed badge marks the row — see "Sandboxed
// servers" in mcpmanager/sandbox; for a remote server, its OAuth client: client ID, client secret (to
// the OS keyring), redirect port and scopes — see "Remote servers" in mcpmanager/oauth); search by
// text and filter by tag; Test connection starts the server on its own (offering
// the same capabilities as its session, so it counts the tools the row counts)
// and shows how long start, `initialize` and `tools/list` took and its tools
// ("12 tools, 2 of them app-only (not shown to the model)"), or exactly which
// step failed and the server's last stderr lines; its report scrolls into view;
// an error says what happened and what to do in a sentence ("uvx is not
// installed: install uv (https://docs.astral.sh/uv/) or change the command in
// Edit"), the technical text behind Technical details; a Profile menu switches
// every server to its `work` / `home` / … overrides at once; Add from template…
// offers the catalogue (Filesystem, Memory, Fetch, Git, GitHub, Everything) and
// your config's templates as forms generated from their parameters; Add server…
// opens a form (name; transport stdio / Streamable HTTP / SSE; command,
// arguments one per row with add / remove / move, environment and headers as
// rows where a value ticked Secret goes to the OS keyring and config.json gets
// `${secret:server.ID.env.NAME}` (a value that looks like a key or token is
// marked, with Keep NAME in the keyring); working directory, URL, startup and
// tool timeouts in seconds, the tools offered only and the tools left out,
// enabled), and Edit opens the same form for a server
// (also beside a server's error): each field is checked with config.json's own
// rules as you type, the problem shown under it (its hint stays); a save that
// finds problems moves focus to the first such field, marked invalid, and says
// beside the button how many and which; Edit as JSON edits the entry itself
// (with what was typed in the form, a new secret value excepted), problems in
// words with their place ("Line 3, column 3: a comma (,) is missing before
// "args""); saving is one locked edit of config.json
// (other entries stay as they are on disk, whoever changed them; if this very
// entry was changed on disk since the form opened, nothing is saved and the form
// says so), then the server restarts and the form says it is running with N
// tools, or why it did not start; a rename keeps the entry's place and must take
// a free name; Open config file opens config.json in your editor and shows its
// path (Copy path); restart, enable / disable, remove (asks first, with Also
// delete its secrets from the keyring ticked); a server naming a keyring secret
// that is not its own lists it with Grant; Import… opens a wizard: paste JSON,
// choose a file or a config found on this machine, see per server what would
// happen (new / changed / name in use / invalid, with line:column problems you
// can jump to), choose keep / replace / rename, fill VS Code `${input:…}`
// values, optionally run the imported local servers in a sandbox, import (VS
// Code's and Cursor's variables are written out as they import — `${userHome}`,
// `${workspaceFolder}` and `${workspaceFolderBasename}` for a folder's
// `.vscode/mcp.json` or `.cursor/mcp.json`, `${pathSeparator}` and `${/}` —,
// Claude Code's `${VAR}` and `${VAR:-default}` become `${env:VAR}` and `${env:VAR:-default}`,
// read at each start, and any other
// `${…}`, which config.json gives no value, is flagged as a warning under its
// server in the preview and under its field in Edit); a tool whose definition
// changed since you trusted it shows under its server with a diff and Accept /
// Reject, new tools are marked new, and a ⚠ badge says which tools' descriptions
// may hide instructions
//
// # The Tools page
//
// The tool playground: search every server's tools by name or description, or
// pick a server and a tool (the list is one stop of the Tab key: the arrow
// keys, Home and End move in it), fill the form generated from
// its JSON Schema (or raw JSON) — array items have Add item / Move up / Move
// down / Remove buttons, `oneOf`/`anyOf` a "Kind" choice, and a field no widget
// fits (no type, several types, a `$ref` it cannot follow) a small JSON editor
// that says what is wrong; the same form serves elicitation requests and server
// templates — run it, see text / images / resources / errors and the duration; a
// ⚠ badge on a tool whose description may hide instructions; a tool withheld
// because its definition changed since it was trusted is named above the list
// ("1 tool left out", with the way to Accept or Reject it on the Servers page),
// apart from the servers that listed no tools; Approval rules on
// arguments, listed, added and removed (see "Pinned tools, poisoned
// descriptions, approval rules" in mcpmanager/pins)
//
// # The Knowledge page
//
// Full-text content stores (the built-in `content-store` server, bleve BM25):
// create / delete (asks first) stores, add files by picker or drag and drop
// (their bytes go to the store, which reads them as it reads a file by path:
// Latin-1, UTF-16, PDF; a file over the store's limit is refused before it is
// read; the same file added again replaces its document) with a progress bar
// and Cancel (ToolsPage.AddDocument, CancelDocument), search with highlighted
// hits (and the store's note when a query can match nothing), open a document
// at the matching lines, and a store's documents newest first, a page of 100 at
// a time. A store another program has open is shown as in use, naming it; an
// add a crash cut short says what it left out
//
// # The Agents page
//
// Named set-ups a chat starts from: system prompt, provider and model, the
// servers it may use (optionally only some of their tools, and of their skills),
// the approval per server, and delegate mode, where each server becomes one
// `ask_<server>` specialist: the model sees a tool per server instead of
// hundreds, and each specialist's own tool calls show nested under its card.
// Start chat (or the chat list's agent menu) opens a chat with the agent;
// the chat list shows each chat's agent under its title. Its row and form
// mark a server it names that is not set up (the form lists it so it can be
// unticked) and a provider that is gone ("NAME (not set up)"); the form also
// sets its tool mode (greyed out with delegate, which uses none). Duplicate
// saves a copy ("NAME copy"); Import… lists Claude Code's agent files
// (~/.claude/agents, the workspace folder's .claude/agents) as agents, with
// notes on what does not carry over, and imports the ones ticked. A chat
// says in its header when its agent was deleted (it goes on with the
// default set-up) or names servers that are not set up.
//
// # The Workspace page
//
// The folder the model works in (the built-in `workspace` server): choose it,
// browse its files, and a terminal (xterm.js) attached to the same shell the
// model's `execute_shell` uses — you see its commands live and can type too
//
// # The Settings page
//
// Chat → Long chats (where chats are summarised, 80% of the model's context
// window by default; the share of the window one tool result may take before the
// model gets its head and a handle, 15%; budgets per tool or server; context
// windows per model the provider does not tell); tool search (when the model
// first gets `find_tools` instead of every tool: by default when the active
// tools' definitions — their estimated tokens — take more than 25% of the
// model's context window, as the provider lists it or as known for its family,
// 32k assumed when unknown; or above a count of tools; or never — and the tools
// always offered); Chat → Sampling (what a server's request to use your model
// may do: ask every time — the default —, allow the first N of each chat without
// asking, or refuse; at most N requests per server and minute; Allow sampling
// outside a tool call, off by default); model providers (OpenAI-compatible with
// any base URL — OpenAI, LM Studio, OpenRouter, Groq, vLLM —, Anthropic, Ollama,
// offered when one runs on this machine; Ollama, which silently cuts a prompt
// longer than its context, is told for each request a `num_ctx` that holds it —
// a power of two from 4,096 up to the model's context length from `/api/show`):
// add / edit / delete / make default, keys go to the keyring; a provider saved is
// asked for its models ("Connected to NAME: N models", or why not in the form),
// and one that does not answer does not take the default from another; Download a model
// to run on this computer (also the welcome page's model step; nothing downloads
// without a click): a short pinned list — Qwen3 1.7B Q4_K_M (1.1 GB, Apache-2.0,
// recommended) and Qwen3 0.6B Q4_K_M (397 MB, for small machines) — with size,
// the memory it needs, licence and what it is good for; Download shows a
// progress bar with Cancel (the partial file stays in `<data>/models` and
// Download resumes it, with an HTTP Range request), checks the file against its
// pinned size and SHA-256 before use (a wrong file is removed, and the error
// says to check the download URL, with Retry) and hashes it again once it is in
// place, so a partial file that another program replaced or changed meanwhile
// is removed, not installed (the error says so, with Retry; a second download of
// the same model, from another window or the CLI, follows the first instead),
// then adds the provider On this computer (the default when there is none);
// every download running shows its bar and Cancel whichever model is selected,
// and on the welcome page a second one stays in view once the first made the
// choice; Choose a GGUF file… adds a model file you already have (it stays where
// it is; one that cannot run — a split model's later part, a first part without
// its parts, a file cut short — is refused saying what to do), and "Found on
// this computer" offers the GGUF models Ollama and LM Studio keep, each added in
// one click (an Ollama model under Ollama's name, qwen3:0.6b); sizes are decimal
// (as download sites show them, and as the CLI says them);
// Remove deletes a downloaded model or forgets a chosen file, after asking; the
// download URL may name a mirror (its base URL) or a folder, and the pins still
// apply; secrets kept in the OS keyring, listed by name and masked, with add /
// replace / delete
//
// Keyboard: Ctrl+1 … Ctrl+7 (⌘ on macOS) switch pages. The theme follows the OS.
// The window works from 720×600 to 4K: below 1000 px wide the navigation (and on the Chat page the
// chat list, first, with the page links a row of icons under it) moves into a drawer behind the menu
// button at the top left (Esc, a click outside or a dialog opened from it closes it; Esc in that
// dialog closes the dialog); a page switch puts focus on the page's heading; a narrow chat header keeps provider, model, tools and export under ⋯, and on wide
// screens pages and the conversation keep a readable width.
//
// The first time, with no servers and no model provider, the window opens on a welcome page:
// the configs of Claude Desktop, Claude Code, Cursor, VS Code, Codex and other apps found on this machine
// with their server counts ("4 servers, 1 needs attention": a broken entry never hides the rest; a
// file that cannot be parsed shows with its line:column), each imported in one click through the
// import preview (which, done, lists what became of each server and offers Close); Ollama or
// LM Studio when one runs on this machine (Ollama at `$OLLAMA_HOST` if set), added as the
// provider in one click with the model you pick from its list (a chat model is chosen to start with, not an embedding model), otherwise a hosted provider's key or an OpenAI-compatible server's base URL (LM Studio's
// http://localhost:1234/v1 filled in), used once it lists its models; and where the data dir is. Done or
// skipped, it is not shown again; going to another page from the navigation leaves it for now (it
// shows again at the next start while nothing is set up). The window's size and position are remembered. Help → About
// (or About Switchboard under the navigation) shows the version, the data and log folders
// (Open log folder) and the licence.
package gui
