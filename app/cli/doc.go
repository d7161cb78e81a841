// Package cli owns Switchboard's command line: parsing, dispatch, exit codes
// and help text. The GUI is one of its outcomes: with no subcommand (only
// global flags) Run hands over to the GUI launcher it was given.
//
//	code := cli.Run(ctx, os.Args[1:], cli.Env{
//		Stdout: os.Stdout, Stderr: os.Stderr,
//		GUI: func(ctx context.Context, o cli.GUIOptions) error { return runWindow(o) },
//	})
//	os.Exit(code)
//
// Exit codes: 0 success, 1 runtime error, 2 usage or validation error. Errors
// go to stderr as one sentence saying what went wrong and what to do.
//
// # Commands in detail
//
//	switchboard                                  open the app window
//	switchboard FILE.mcpb                        open the window (or the running one) with a bundle
//	switchboard version                          print the version
//	switchboard servers list [--config FILE]     configured servers (nothing is started), with
//	                                             each one's SANDBOX ("-", "on", "on,network,write=1")
//	switchboard servers import FILE [--dry-run] [--set ID=VALUE|ID=-] [--resolve NAME=keep|replace|rename]
//	                             [--plaintext SERVER.env.VAR] [--sandbox]
//	                                             merge a Claude Desktop / Cursor / Windsurf / Claude Code /
//	                                             VS Code / Codex (TOML) / Goose / Continue (YAML) / opencode /
//	                                             Zed / legacy config into the app config; secrets and
//	                                             password inputs to the keyring (ID=- reads stdin)
//	switchboard servers discover                 find other apps' MCP configs on this machine, with
//	                                             how many servers each holds and how many need
//	                                             attention (the welcome page shows the same)
//	switchboard servers add NAME [--env K=V|K=- ...] [--plaintext K] -- COMMAND ARGS...   or   --url URL
//	                                             secret-looking values to the keyring as on import;
//	                                             K=- reads the value from stdin (always the keyring)
//	switchboard servers add NAME --template ID [--param KEY=VALUE ...]
//	                                             add a server from a template (secret parameters go
//	                                             to the keyring); 'servers templates' lists them
//	switchboard servers templates                list the server templates (the catalogue and those in
//	                                             the app config) and their parameters
//	switchboard servers install FILE.mcpb [--set KEY=VALUE ...] [--accept-changes]
//	                                             install an MCP Bundle as a server named after its
//	                                             manifest (see "MCP Bundles" in mcpmanager/bundle); again to update or
//	                                             reinstall, keeping the values you gave (a new
//	                                             version's defaults apply where you gave none); a
//	                                             relative file or folder is taken from the current
//	                                             directory; a bad signature, a file that is not a
//	                                             bundle or an unsafe one exits 2 saying why; an older
//	                                             version, or another author, signer or command than
//	                                             the installed copy's is shown and asked on a
//	                                             terminal, else exits 2 (--accept-changes installs it);
//	                                             a program the server needs that is not installed
//	                                             (uv, node, python) is warned of. There is no top-level
//	                                             'switchboard install': 'switchboard FILE.mcpb' opens
//	                                             the window with it
//	switchboard servers test NAME [--config FILE]   start one server alone, connect
//	                                             (server/discover or initialize) and run tools/list,
//	                                             print each step's time or what failed, and the
//	                                             MCP revision it speaks
//	switchboard servers skills NAME [--on SKILL | --off SKILL] [--config FILE]
//	                                             start one server and list its skills (name, on or
//	                                             off, size, description; none is read), or switch
//	                                             one on or off for every chat
//	switchboard servers profile [NAME | --none]  list the profiles servers declare, or switch to one
//	switchboard servers remove NAME [--keep-secrets]   remove a server and its keyring secrets
//	switchboard servers enable|disable NAME
//	switchboard servers export [--out FILE]      a shareable config: secrets stay ${secret:NAME}
//	switchboard registry search [QUERY] [--registry URL] [--all]
//	                                             search the MCP Registry (default: Settings → Servers →
//	                                             registry, else https://registry.modelcontextprotocol.io;
//	                                             API v0.1, else v0); one version per server, a deprecated
//	                                             or deleted one marked so; unreachable: says so in a
//	                                             sentence, then the last listing, with its age; --all
//	                                             stops at a repeated cursor, 100 pages or 2 min (prints
//	                                             what it got, exit 1 naming the limit); an address that
//	                                             is not https (nor http to this computer) or not a
//	                                             registry: exit 2, saying so
//	switchboard registry add NAME [--registry URL] [--set KEY=VALUE ...] [--option N] [--name ENTRY]
//	                                             add a registry server, version pinned: npm → npx -y
//	                                             PKG@VER, pypi → uvx PKG==VER, oci → docker run -i --rm
//	                                             IMAGE:TAG, mcpb → download, fileSha256 check, bundle
//	                                             install, remote → URL entry; secret values to the keyring;
//	                                             --set takes every input, optional ones and defaults too
//	                                             (an unknown key is refused); --name when the name is
//	                                             taken; a deprecated server warns, a deleted one, an
//	                                             unsafe or unsupported one, a missing value, a bad
//	                                             fileSha256 are refused (exit 2)
//	switchboard secrets list                     secret names, masked values, servers using them
//	switchboard secrets set NAME                 store a secret read from stdin (never from argv)
//	switchboard secrets delete NAME
//	switchboard secrets grant NAME --server S    let S use a secret that is not its own (one an
//	                                             imported entry, registry entry or bundle names)
//	switchboard models [list]                    the models that run on this computer: the pinned catalog
//	                                             (size, RAM, licence, downloaded or partly) and added GGUF files
//	switchboard models download NAME             download a catalog model (progress on stderr), checked against
//	                                             its pinned size and SHA-256 before use; Ctrl-C keeps the partial
//	                                             file and the same command resumes it (a server that stops
//	                                             sending for a minute is resumed too); a download of the same
//	                                             model already running (the window, another terminal) is
//	                                             followed, not repeated; adds the provider "On this computer"
//	switchboard models add [FILE.gguf]           run a GGUF file of your own (it stays where it is), checked
//	                                             first as llama.cpp loads it (a split model's first part with
//	                                             its parts beside it, a file not cut short); an Ollama blob is
//	                                             named as Ollama names it; alone: as 'models found'
//	switchboard models found                     the GGUF models Ollama (~/.ollama/models) and LM Studio
//	                                             (~/.lmstudio/models) keep here, and which are added
//	switchboard models remove NAME               delete a downloaded model, or forget an added file
//	switchboard models url [URL]                 print or set where models download from: a mirror's base URL
//	                                             or a folder ('' for each model's own Hugging Face URL)
//	switchboard models run [--context N] [--threads N]
//	                                             print or set the context size and threads the model runs
//	                                             with (0: fitted to this machine); the next message restarts it
//	switchboard models status [NAME]             the runtime (llama-server's path, its CPU backends, the one it
//	                                             last loaded) and how NAME (default: the default model) runs
//	                                             here: context, KV cache, memory, threads; or why it cannot
//	switchboard tools list [--config FILE]       start the servers, list server__tool names + errors
//	switchboard tools call NAME --args JSON [--config FILE]
//	switchboard tools changes [NAME] [--server S]  the withheld tools (a definition changed since you
//	                                             trusted it, or a suspicious new tool): a diff of the trusted and
//	                                             the new definition, the warnings, and how to accept or reject
//	switchboard tools trust NAME [--server S]    accept the changed (or new) definition of a withheld
//	                                             tool: NAME is server__tool, or the tool's own name with --server
//	switchboard tools reject NAME [--server S]   refuse it: the tool stays withheld until its server goes back
//	                                             to the definition you trusted
//	switchboard builtin content-store [--root DIR]   the built-in content store over stdio
//	switchboard builtin workspace [--root DIR]       the built-in workspace (file tools, shell) over stdio, in the
//	                                             folder chosen in Settings unless --root says otherwise
//	switchboard servers login NAME               log in to a remote server that uses OAuth
//	switchboard chat [--agent NAME] [--provider P] [--base-url URL] [--model M] [--chat ID] [--yes] [--tools MODE] [PROMPT]
//	                                             ask a model with every server's tools; PROMPT or stdin;
//	                                             the answer streams to stdout, tool calls to stderr
//	                                             (with their servers' progress: one line written over
//	                                             on a terminal, else a line every few seconds);
//	                                             without --yes, risky calls are asked on the terminal
//	                                             (denied when there is none); --yes approves tool calls
//	                                             and forms, never sampling: a server's request to use
//	                                             the model follows settings.chat.sampling (ask on the
//	                                             terminal by default, refused without one), and each
//	                                             refusal is a line on stderr; saved in history.db;
//	                                             --json: chatId, text, status, steps and every tool
//	                                             call of the turn (a script's calls under its
//	                                             run_script call's structuredContent.steps);
//	                                             --tools direct|code|both: each tool as it is, or code
//	                                             mode (list_functions, describe_function, run_script:
//	                                             the model writes JavaScript that calls the tools, each
//	                                             call decided as a direct one), or both; default: the
//	                                             agent's, else settings.chat.tools, else code for a
//	                                             model with a context window up to 32k tokens (a delegating
//	                                             agent uses none, and says so); --agent with a --provider of
//	                                             your own uses that provider's default model; --chat goes on
//	                                             with the chat's agent (its deletion is said on stderr)
//	switchboard agents [list|show NAME]          the agents: model, servers (those not set up marked), mode
//	switchboard agents add NAME [--file F] [--system TEXT | --system-file F] [--provider P] [--model M]
//	                        [--servers A,B] [--tools S__T,...] [--policy PATTERN=ask|allow|deny] [--delegate] [--tool-mode M]
//	switchboard agents edit NAME [same flags, --name NEW]   only the fields whose flags are given
//	switchboard agents duplicate|remove NAME     a copy named "NAME copy"; remove leaves its chats (default set-up)
//	switchboard agents import [PATH...] [--dry-run]
//	                                             Claude Code's subagent files (default ~/.claude/agents and
//	                                             ./.claude/agents): name, description, prompt, tools
//	                                             (mcp__S__T → S__T; Read/Write/Edit/Glob/Grep/LS/Bash → the
//	                                             workspace's), with a note for what has no match; a taken
//	                                             name is skipped
//	switchboard serve [--config FILE]            every tool (external and built-in) as one MCP server over stdio;
//	                                             config.json's servers follow its changes
//	switchboard serve --http 127.0.0.1:PORT      ...or over Streamable HTTP (loopback only unless
//	                                             --listen-any; prints the bearer token to send, or
//	                                             takes it from $SWITCHBOARD_SERVE_TOKEN; keeps the URL
//	                                             and token in DATADIR/run/serve-http-PORT.json, 0600,
//	                                             while it runs)
//	switchboard serve --client NAME              ...for one app ('clients connect' writes this): it sees
//	                                             the servers chosen for it; its use is recorded
//	switchboard serve --code[=both]              code mode for the client: list_functions, describe_function
//	                                             and run_script instead of the tools (both: besides them);
//	                                             each call a script makes is decided by the rules and
//	                                             policies, an "ask" is an elicitation to the client, or
//	                                             refused when it takes none; runs its own servers.
//	                                             Without --code: settings.serve.tools (direct, code,
//	                                             both), which attached apps follow too; --code=false:
//	                                             the tools only, whatever it says
//	switchboard skills [list]                    the skills on this computer (SKILL.md folders of Claude Code,
//	                                             Codex / Agent Skills, Copilot, projects, Claude Code plugins and
//	                                             Switchboard's own): name, source (skills@claude, …), on, off or
//	                                             held, size; malformed ones left out, with the reason, on stderr
//	switchboard skills add PATH [--dry-run] [--yes] [--replace]
//	                                             preview a skill folder or .zip (files, sizes, what the checks
//	                                             found) and copy it into Switchboard's skills folder; findings
//	                                             need --yes
//	switchboard skills remove NAME               delete a skill from Switchboard's skills folder
//	switchboard skills on|off NAME               switch a skill on or off for the chats (NAME or
//	                                             SOURCE/NAME when two share a name)
//	switchboard skills accept NAME [--yes]       accept a skill held because its files changed; one the checks
//	                                             found something in needs --yes (or y on a terminal)
//	switchboard skills trust FOLDER [--off]      your own folder: edits to its skills are not held
//	switchboard skills folder FOLDER [--remove]  look for skills in a project folder too
//	switchboard serve [--client NAME] [--local]  when Switchboard is running (the window or 'daemon'),
//	                                             attach to it over its local socket (found from the
//	                                             data dir alone) and start no server (when none runs
//	                                             it says so): every app shares one process per server;
//	                                             NAME names the app in its logs and call counts
//	                                             (default: its clientInfo.name); --local runs the
//	                                             servers here anyway; if Switchboard quits, serve
//	                                             starts them itself and the app's session goes on
//	switchboard daemon                           keep Switchboard running without a window (e.g. at
//	                                             login): runs config.json's servers once, follows its
//	                                             changes, and shares them with every app's 'serve';
//	                                             Ctrl-C or SIGTERM stops it (attached apps then run
//	                                             their servers themselves)
//	switchboard clients [list]                   the MCP apps on this computer: their files, connected
//	                                             or not, how many servers of their own they still run
//	switchboard clients connect NAME [--move [--set ID=VALUE]] [--servers A,B] [--project DIR] [--env-differs keep|import] [--dry-run]
//	                                             add Switchboard's entry to the app's file, byte for byte
//	                                             otherwise (backups kept); --move moves its servers here
//	                                             (--set: VS Code's ${input:ID}s, else asked on a terminal)
//	switchboard clients disconnect NAME [--without-secrets] [--project DIR] [--dry-run]
//	                                             take the entry out, give moved servers back where they
//	                                             were, their secrets from the keyring (--without-secrets: empty)
//	switchboard clients servers NAME [A,B]       the servers the app sees (no list: all)
//	switchboard --help                           list commands; 'switchboard help COMMAND' for one
//
// Global flags, before or after the command: `--data-dir DIR` (default: the OS config dir +
// `/switchboard`, or `$SWITCHBOARD_DATA_DIR`) and `--json` for machine-readable output.
// `--config FILE` uses that mcpServers file instead of the app config, so you can try a file
// before importing it. Exit codes: 0 success, 1 runtime error, 2 usage or validation error
// (an import that skipped invalid servers also exits 2, after importing the valid ones);
// errors go to stderr naming the file, `line:column`, the JSON path and what to do, e.g.
// `claude.json:7:37: mcpServers.bad.args: must be an array of strings, got a string`.
// A plain `go build .` gives a CLI-only binary; the window needs the Wails build (`make build`).
// Text that comes from a server or a model (tool results and descriptions, errors, stderr
// lines, forms, the chat's answer and tool-call lines) is printed without control characters:
// escape sequences, other C0/C1 controls and bidi overrides are dropped (newlines and tabs
// stay), so a server cannot move the cursor, retitle or write to the clipboard through your
// terminal; `--json` output keeps the exact text, JSON-escaped. A tool call's arguments, on
// its line and in the approval question, are written out as serve's question to its client
// and the window's approval card write them (host.Show, `mcpmanager/plain`): zero-width,
// bidirectional and other invisible characters as their codes (`\u2067`), more than 32
// spaces as `[600 spaces]`, and arguments longer than 2,000 characters as their head and tail
// with `[… N characters not shown …]` between them and a line saying that allowing the call
// allows the part not shown too.
// A server's form (elicitation) is asked field by field on a terminal (`app/cli/form.go`):
// choices numbered with their titles (one, or several separated by commas), each answer
// checked against its field (range, length, email, uri, date, date-time) and asked again
// when it does not fit, and sent with the schema's types; without a terminal (a pipe,
// `/dev/null`) a form is declined, and so is one whose stdin closes before it is answered.
//
// The `--json` output is a stable contract: the golden files under testdata/golden hold
// what every listing command prints (TestJSONGolden; times, ports, temp paths and ids are
// replaced by named placeholders), so a renamed or dropped field fails the test. The rows
// and reports it prints are the host's types (app/host/views.go), the same ones the
// window's bindings return. Fields changed since the golden files were made: none.
package cli
