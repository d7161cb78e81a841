// Package host is the use-case layer under Switchboard's two front doors,
// and their only door into the engine: the window (app/gui,
// Wails-bound) and the terminal (app/cli) both call it, so a feature
// behaves the same from either. Open makes its parts once; each owns one
// group of use cases and is the one way to them. The front doors import
// nothing of the engine (depguard's front-doors rule in .golangci.yml):
// the engine's words they use (a server's entry, a chat's settings, a
// turn's events and questions) are named here, in types.go, as aliases.
// It has no Wails, no flags and prints nothing.
//
// The CLI opens a Host the same way and calls Servers.Run with the servers
// of a --config file instead of Follow; a change to config.json from the CLI starts
// nothing. Example opens a data directory and starts its servers;
// Example_tools goes on to rules, the tool-call decision and a call.
//
// A Host is safe for concurrent use.
//
// # Where to change what
//
// Each part is one type, a field of Host, with every exported method in
// the file named for it; its unexported helpers sit in a few files named
// after them, and the sentinel and typed errors in errors.go. To change:
//
//   - what a server entry holds, how config.json's servers load, run,
//     start, restart, test or log in, see Servers (servers.go; an edit
//     form's check, save and wait in serveredit.go)
//   - reading a --config file or another app's config, importing its
//     servers, exporting a shareable file, see ServerFiles (serverfiles.go)
//   - a server's stderr, its MCP log messages and their level, see
//     ServerLogs (serverlogs.go)
//   - what the running servers offer (tools, prompts, resources,
//     completions, calls, metrics), see Tools (tools.go)
//   - 'switchboard serve' (the servers as one MCP server for an app, over
//     stdio or HTTP, in code mode or not; the servers' requests relayed
//     to it), see Serve (serve.go)
//   - chat sessions: how a chat is created (its title and default
//     model), the engine and the requests servers make during a turn, a
//     turn's model (a configured provider's or an ad-hoc one), settings
//     and context window, running turns, the stored chats (list, search,
//     messages, rename, export; the history never leaves the host), see Chats (chats.go; the stored chats in
//     chathistory.go, their views in chatviews.go, its helpers in
//     chatsession.go; what another process writes to the history, which
//     the window follows: FollowChats in chatfollow.go)
//   - a setting of config.json (chat, providers, approval rules, long
//     chats, sampling) or the model servers found on this computer (Ollama,
//     LM Studio) to offer as providers, see Settings (settings.go)
//   - agents (list them with the servers and provider they name that are
//     not set up, save, duplicate, remove) and Claude Code's agent files
//     found and imported, see Agents (agents.go; the files read in
//     agentfiles.go)
//   - the keyring, a server's secrets or a grant of one, see Secrets
//     (secrets.go)
//   - templates, profiles or a server's metadata, see Library (library.go)
//   - the workspace built-in's root, files or shells, see Workspace
//     (workspace.go)
//   - installing, inspecting or removing an MCP Bundle, see Bundles
//     (bundles.go)
//   - searching the MCP Registry or adding its servers, see MCPRegistry
//     (mcpregistry.go)
//   - trusted tool definitions and changes to review, see Pins (pins.go)
//   - MCP tasks' settings, see Tasks (tasks.go)
//   - servers' skills (list, switch on and off), see Skills (skills.go)
//   - skills on this computer (SKILL.md folders: find, review a change,
//     trust a folder, add a folder or .zip, remove, switch on and off), see
//     LocalSkills (localskills.go)
//   - packages fetched before a server's first start (npx, uvx, docker),
//     see Fetch (fetch.go)
//   - servers' icons as the window shows them, see Icons (icons.go)
//   - MCP Apps (their resources, calls, context for the model, the files
//     they save), see MCPApps (mcpapps.go)
//   - the model on this computer (llama-server: start, plan, stop, log),
//     see Local (local.go)
//   - the local model's files (catalog, downloads, chosen GGUF files, those
//     Ollama and LM Studio keep), see Models (models.go, modelsfound.go)
//   - sharing the running servers with other apps' 'switchboard serve'
//     over a local socket (listen, attach, the apps attached), see Shared
//     (shared.go)
//   - the other MCP apps on this computer (Claude Code, Cursor, …):
//     connect, disconnect, move their servers here, the servers each
//     sees, what serve records of their use, see Clients (clients.go)
//   - what the window remembers that is not configuration (ui.json: the
//     welcome page done, the window's size and position), see UIState
//     (uistate.go)
package host
