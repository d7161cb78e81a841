// Package pins keeps the tool definitions a user has trusted, so that a
// server which quietly changes a tool after it was trusted (a "rug pull":
// a harmless description replaced by one that tells the model to read
// ~/.ssh) is noticed before the model sees the new text.
//
// The first time a tool is seen its definition — name, title, description,
// input and output schema, annotations, _meta (where an MCP App is
// attached), execution (whether it runs as a task) and icons, as
// canonical JSON — is hashed and kept (trust on first use). A later
// listing with a different hash is withheld: Screen returns a
// *ChangedError for it, and the new definition is kept beside the trusted
// one so that a person can review the diff and Accept (Trust) or Reject
// it. A tool first seen after its server's first listing is marked new
// until it is accepted — and withheld until then when its text looks like
// hidden instructions (toolcheck): a trusted server cannot slip a poisoned
// tool in as a new one instead of changing an old one.
//
// Screen says which tools of a listing to offer, Changes lists what waits
// for review and Trust accepts a new definition. See Example.
//
// The store is one JSON file in the data directory, written atomically
// (temp file, fsync, rename) and read again when another process (the CLI's
// `tools trust`) changed it: Screen looks at the file every time, Version
// (asked at every call and listing) only when a watch of the folder saw the
// file change, on Linux (watch.go). Close stops the watch. A Store is safe
// for concurrent use.
//
// What is pinned is the listing as the router hands it out: secrets the
// server was started with are masked first (router.Redactor), the same way
// in every process, so the file never holds one and a pin stays trusted
// across restarts; a pin taken before masking whose masked definition is
// the one listed now is taken over (Options.Redact). Forget drops a
// removed server's pins.
//
// # Pinned tools, poisoned descriptions, approval rules
//
// Pinned tool definitions. The first time Switchboard sees a tool of a server you
// configured, it keeps a SHA-256 of its definition — name, title, description, input and
// output schema, annotations, `_meta` (where an MCP App is attached), `execution` (whether it
// runs as a task) and icons, as canonical JSON (sorted keys) — in `pins.json` in the data
// directory (written atomically; the built-ins are not pinned, they change with the app). When
// a later listing differs (a server that "rug-pulls": a harmless description changed, after
// you trusted it, into one telling the model to read `~/.ssh/id_rsa`), the tool is
// withheld: chats do not offer it, `switchboard serve` does not list it, and a call of it
// — by a model, by `tools call`, by a `serve` client — fails with "the tool's definition
// changed since you trusted it; it is withheld until you review it: run `switchboard tools
// trust weather --server rug` or open Servers → rug in the window and Accept or Reject it".
// (Pins made before `_meta`, `execution` and icons were pinned take those in, as they are, at
// the next listing.) The Servers page shows the changed tool under its server with a line diff of the
// trusted and the new definition and Accept / Reject (Reject keeps it withheld; if the
// server changes back, the tool is offered again). A tool a known server adds later is marked
// new on its row — and when its texts look like hidden instructions (the checks under
// "Poisoned descriptions"), it is withheld like a changed one until you accept it: a server
// you trusted cannot slip a poisoned tool in as a new one. From the terminal, `switchboard tools changes` shows
// each withheld tool's diff and warnings, `switchboard tools trust NAME` accepts and `switchboard tools reject NAME`
// rejects (no server is started: the new definition was kept when it was listed); a running window or `serve` sees
// the decision at its next listing or call.
//
// Poisoned descriptions. Every tool's title, description and input-schema texts are
// checked for hidden instructions: text addressed to the model (`<IMPORTANT>`, `<SYSTEM>`,
// "ignore previous instructions"), asking to keep something from the user, asking to read key
// or credential files (`~/.ssh`, `id_rsa`, `.aws/credentials`, `.env`) or to pass secrets on,
// invisible or bidirectional Unicode (zero-width characters, bidi overrides, tag characters),
// and descriptions far longer than usual (over 10,000 characters). A finding is a ⚠ badge with
// the reason on the tool (Tools page) and on its server (Servers page, "Why the warnings"),
// and again in the approval card when the tool is about to run; invisible characters are
// shown escaped (`\u200B`). Nothing is removed or changed: you decide. The rules give no
// warning on any of the 321 tools of the 18 real servers the tool-search test lists
// (`mcpmanager/toolcheck/testdata/clean.json`).
//
// Approval rules on arguments. `settings.chat.rules` allow or deny a tool's calls by
// their arguments, without asking:
//
//	{"tool": "workspace__execute_shell", "effect": "allow",
//	 "match": [{"path": "command", "glob": "git status*"}]}
//
// `tool` is `server__tool` or `server__*`; each `match` names a JSON path into the arguments
// (`command`, `options.recursive`, `paths[0]`) and a `glob` (`*` any text, `?` one character,
// `[abc]` a set; the whole value must match) or a `regex` (Go syntax, anchored; in a deny
// rule `.` also matches a newline, so a deny sees every line of a command); all must hold.
// An allow rule never matches a value holding more command separators — `;`, `&`, `|`,
// a backtick, `$(`, `>`, `<`, a newline — than its own pattern shows: the rule above runs `git
// status --short` without asking, while `git status; touch x`, `git status && curl …` or
// `git status` followed by a second line are asked about (a pattern that itself holds
// `git log | head*` allows that one pipe, not a second command). A deny rule always wins — over allow rules, over "allow for this chat", over a
// tool's `allow` policy and over `--yes` on the command line; a tool whose policy is `deny`
// stays denied. A rule that cannot be read (a bad pattern) denies the calls of its tool, and
// saving one is refused with the field named (`match[0].regex: error parsing regexp: …`). The
// approval card's Always allow calls like this… proposes a rule from the exact arguments
// (each top-level value matched literally), which you edit — `git status --short` into
// `git status*` — before saving; the call then runs. Rules are listed, added and removed on
// the Tools page under "Approval rules".
package pins
