package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/switchboard-app/switchboard/app/cli"
)

// switchboard runs one command line through cli.Run, as a shell would in
// dir with dir/data as the data directory, and prints a transcript: the
// line, what the command wrote to stdout then stderr, and its exit code
// when it is not 0. The README's CLI transcripts are these examples'
// output (see readme_test.go at the repository root).
func switchboard(dir, line string) {
	fmt.Println("$ switchboard " + line)
	var out, errb bytes.Buffer
	args := append([]string{"--data-dir", filepath.Join(dir, "data")}, strings.Fields(line)...)
	// The command reads files relative to dir, as the shell's working
	// directory would be; paths in the output are shown relative to it.
	wd, _ := os.Getwd()
	_ = os.Chdir(dir)
	code := cli.Run(context.Background(), args, cli.Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")})
	_ = os.Chdir(wd)
	text := strings.ReplaceAll(out.String()+errb.String(), dir+string(filepath.Separator), "")
	// A server's id is random (config.json's "id", the middle of its
	// keyring names); the transcript shows where it goes.
	text = serverID.ReplaceAllString(text, "server.<id>.")
	text = agentID.ReplaceAllString(text, "(id <id>)")
	fmt.Print(text)
	if code != 0 {
		fmt.Printf("(exit %d)\n", code)
	}
}

var (
	serverID = regexp.MustCompile(`server\.[0-9a-f]{12}\.`)
	agentID  = regexp.MustCompile(`\(id [0-9a-f]{16}\)`)
)

// tempDir is a fresh folder for one example, holding the given files.
func tempDir(files map[string]string) (string, func()) {
	dir, err := os.MkdirTemp("", "switchboard-example-")
	if err != nil {
		panic(err)
	}
	dir, _ = filepath.EvalSymlinks(dir)
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			panic(err)
		}
	}
	return dir, func() { os.RemoveAll(dir) }
}

const claudeConfig = `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_exampleexampleexample1234"}
    },
    "notes": {"command": "/opt/notes/notes-mcp", "args": ["--dir", "~/notes"]}
  }
}`

// Importing a Claude Desktop config: a dry run first, then the import; the
// token moves to the keyring and config.json keeps a reference to it.
func Example_serversImport() {
	dir, done := tempDir(map[string]string{"claude_desktop_config.json": claudeConfig})
	defer done()
	switchboard(dir, "servers import claude_desktop_config.json --dry-run")
	switchboard(dir, "servers import claude_desktop_config.json")
	switchboard(dir, "servers list")
	switchboard(dir, "secrets list")
	// Output:
	// $ switchboard servers import claude_desktop_config.json --dry-run
	// SERVER  OUTCOME  ACTION
	// github  added    add
	// notes   added    add
	//   github: env.GITHUB_PERSONAL_ACCESS_TOKEN ••••1234 moves to the keyring as ${secret:server.<new id>.env.GITHUB_PERSONAL_ACCESS_TOKEN} (keep it with --plaintext github.env.GITHUB_PERSONAL_ACCESS_TOKEN)
	// dry run: nothing was changed
	// $ switchboard servers import claude_desktop_config.json
	// SERVER  OUTCOME  ACTION
	// github  added    add
	// notes   added    add
	//   github: env.GITHUB_PERSONAL_ACCESS_TOKEN ••••1234 moves to the keyring as ${secret:server.<id>.env.GITHUB_PERSONAL_ACCESS_TOKEN} (keep it with --plaintext github.env.GITHUB_PERSONAL_ACCESS_TOKEN)
	// saved data/config.json
	// $ switchboard servers list
	// NAME    TRANSPORT  ENABLED  SANDBOX  TAGS  COMMAND / URL
	// github  stdio      true     -              npx -y @modelcontextprotocol/server-github
	// notes   stdio      true     -              /opt/notes/notes-mcp --dir ~/notes
	// $ switchboard secrets list
	// NAME                                                  VALUE     USED BY
	// server.<id>.env.GITHUB_PERSONAL_ACCESS_TOKEN  ••••1234  github
}

// Every listing has a --json form.
func Example_json() {
	dir, done := tempDir(map[string]string{"claude_desktop_config.json": claudeConfig})
	defer done()
	switchboard(dir, "servers import claude_desktop_config.json")
	switchboard(dir, "--json servers list")
	// Output:
	// $ switchboard servers import claude_desktop_config.json
	// SERVER  OUTCOME  ACTION
	// github  added    add
	// notes   added    add
	//   github: env.GITHUB_PERSONAL_ACCESS_TOKEN ••••1234 moves to the keyring as ${secret:server.<id>.env.GITHUB_PERSONAL_ACCESS_TOKEN} (keep it with --plaintext github.env.GITHUB_PERSONAL_ACCESS_TOKEN)
	// saved data/config.json
	// $ switchboard --json servers list
	// [
	//   {
	//     "name": "github",
	//     "transport": "stdio",
	//     "enabled": true,
	//     "target": "npx -y @modelcontextprotocol/server-github",
	//     "tags": []
	//   },
	//   {
	//     "name": "notes",
	//     "transport": "stdio",
	//     "enabled": true,
	//     "target": "/opt/notes/notes-mcp --dir ~/notes",
	//     "tags": []
	//   }
	// ]
}

// The built-in servers start with nothing configured.
func Example_toolsList() {
	dir, done := tempDir(nil)
	defer done()
	switchboard(dir, "tools list")
	// Output:
	// $ switchboard tools list
	// content-store__addContent      Add a document to a store so it can be searched. Pass one of `text` (with a `...
	// content-store__createStore     Create a new, empty content store: a named collection of documents for full-t...
	// content-store__deleteContent   Remove one document from its store; it is no longer found by search. Cannot b...
	// content-store__deleteStore     Delete a whole store with every document in it. Cannot be undone; ask the use...
	// content-store__listContent     List the documents of a store, newest first, a page at a time: contentId, tit...
	// content-store__listStores      List the content stores: id, name, description, analyzer, number of documents...
	// content-store__readContent     Read lines of a stored document, e.g. around a search hit's fromLine–toLine...
	// content-store__reindexContent  Read a document again and index it anew: from its file when it is still there...
	// content-store__search          Full-text search over the stores, ranked by BM25. Returns the best chunks, ea...
	// workspace__delete_file         Delete a file, a symbolic link (not what it points to) or an empty directory ...
	// workspace__edit_file           Replace one exact piece of text in a file: old_string must occur exactly once...
	// workspace__execute_python      Run a Python 3 program in a new interpreter in the workspace root and return ...
	// workspace__execute_shell       Run a command line (or a multi-line script) in a persistent shell (bash, or s...
	// workspace__list_directory      List one directory of the workspace: each entry with its type (file, dir/, sy...
	// workspace__move_file           Move or rename a file or directory within the workspace. Fails if the destina...
	// workspace__read_file           Read a UTF-8 text file of the workspace. Returns its lines exactly as stored ...
	// workspace__search_files        Find files by name and/or find text in files, under a directory of the worksp...
	// workspace__tree                Show the directory tree under a path, indented, down to a depth (default 3, a...
	// workspace__write_file          Create a file, or replace a file's whole content, in the workspace. Missing p...
}

// claudeAgent is a Claude Code subagent file, as ~/.claude/agents holds them.
const claudeAgent = `---
name: code-reviewer
description: Reviews recent changes for bugs, risky patterns and unclear names.
tools: Read, Grep, Glob, Bash, WebFetch
model: sonnet
---

You are a careful code reviewer. Name the most serious problem first.
`

// Claude Code's agents imported (what does not carry over is said), one
// made from flags, and the list.
func Example_agents() {
	dir, done := tempDir(map[string]string{"code-reviewer.md": claudeAgent})
	defer done()
	switchboard(dir, "agents import code-reviewer.md")
	switchboard(dir, "agents add Librarian --servers content-store,notes --delegate")
	switchboard(dir, "agents")
	// Output:
	// $ switchboard agents import code-reviewer.md
	// FILE              AGENT          OUTCOME
	// code-reviewer.md  code-reviewer  imported
	//   note: code-reviewer: WebFetch is Claude Code's own, with no match here: left out
	//   note: code-reviewer: model "sonnet" is Claude Code's choice of model: the agent uses the default model; choose one in its form
	// $ switchboard agents add Librarian --servers content-store,notes --delegate
	// saved agent Librarian (id <id>)
	// switchboard: agent Librarian names servers that are not set up: notes; its chats run without them until you add them ('switchboard servers add')
	// $ switchboard agents
	// NAME           MODEL    SERVERS                            MODE
	// code-reviewer  default  workspace                          as in Settings
	// Librarian      default  content-store, notes (not set up)  delegate
}

// The commands, as --help lists them.
func Example_help() {
	dir, done := tempDir(nil)
	defer done()
	switchboard(dir, "--help")
	switchboard(dir, "help servers")
	// Output:
	// $ switchboard --help
	// usage: switchboard [--data-dir DIR] [--json] COMMAND ...
	//
	// Bring your MCP servers to any model, on your own machine.
	//
	// With no command, switchboard opens the app window; 'switchboard FILE.mcpb' opens it with
	// a bundle. When it already runs (same user and data dir), that window comes to the front
	// and gets the file, and this launch exits.
	//
	// Commands:
	//   servers        list, import and edit the MCP servers in the app config
	//   registry       search the MCP Registry and add its servers
	//   tools          list and call the tools of every server
	//   secrets        list, set and delete the secrets kept in the OS keyring
	//   chat [PROMPT]  ask a model, with the tools of every server; PROMPT or stdin
	//   agents         the agents chats start from (a prompt, a model, servers, policies): add, edit, remove, import Claude Code's (alone: list)
	//   models         the models that run on this computer: the catalog, downloads, GGUF files (alone: list)
	//   serve          serve every managed tool as one MCP server over stdio (or Streamable HTTP with --http)
	//   daemon         keep Switchboard running without a window: run the servers once and share them with every app's 'switchboard serve'
	//   clients        the MCP apps on this computer (Claude Desktop, Claude Code, Cursor, VS Code, …) and whether they use Switchboard
	//   builtin        run one built-in server over stdio, for Claude Desktop or any other MCP host
	//   skills         the skills on this computer (SKILL.md folders of Claude Code, Codex, Copilot, projects, plugins and Switchboard's own): list, add, remove, switch on and off
	//   version        print the version
	//
	// Flags:
	//   --data-dir string  data directory (env SWITCHBOARD_DATA_DIR; default: the OS config dir + /switchboard)
	//   --json             machine-readable output
	//
	// Run 'switchboard help COMMAND' for a command's flags.
	// Exit codes: 0 success, 1 runtime error, 2 usage or validation error.
	// $ switchboard help servers
	// usage: switchboard servers [--data-dir DIR] [--json] COMMAND ...
	//
	// List, import and edit the MCP servers in the app config.
	//
	// Commands:
	//   list                                                       list configured servers (without starting them)
	//   import FILE                                                merge the servers of a Claude / Cursor / VS Code / Codex / Goose / Continue / opencode / Zed / legacy config into the app config
	//   discover                                                   find the MCP configs of Claude Desktop, Claude Code, Cursor, VS Code, Codex and other apps on this machine
	//   add NAME [--url URL | --template ID | -- COMMAND ARGS...]  add one server
	//   install FILE.mcpb [--set KEY=VALUE ...]                    install an MCP Bundle (.mcpb) as a server named after its manifest
	//   remove NAME                                                remove a server from the app config, and its secrets from the keyring; the agents that used it no longer do
	//   export                                                     write a shareable mcpServers config: secrets stay ${secret:NAME} placeholders
	//   enable NAME                                                enable a server
	//   disable NAME                                               disable a server
	//   login NAME                                                 log in to a remote server with OAuth in your browser (the tokens go to the keyring)
	//   test NAME                                                  start one server on its own, connect (server/discover or initialize) and run tools/list, time each step and name the MCP revision it speaks
	//   skills NAME                                                start one server and list its skills (name, size, on or off; none are read), or switch one on or off for the chats with --on SKILL / --off SKILL
	//   templates                                                  list the server templates (the catalogue and those in the app config) and their parameters
	//   profile [NAME | --none]                                    show the profiles servers declare, or switch every server to one
	//
	// Flags:
	//   --data-dir string  data directory (env SWITCHBOARD_DATA_DIR; default: the OS config dir + /switchboard)
	//   --json             machine-readable output
	//
	// Run 'switchboard servers help COMMAND' for a command's flags.
	// Exit codes: 0 success, 1 runtime error, 2 usage or validation error.
}
