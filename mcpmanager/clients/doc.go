// Package clients edits other MCP apps' config files in place: it adds
// Switchboard's entry (connect), takes it out again (disconnect) and
// moves an app's own servers out and back, in each app's own format —
// JSON and JSONC (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf,
// Zed, Gemini CLI, LM Studio, opencode, Cline, Kiro), TOML (Codex) and
// YAML (Goose, Continue). Which apps there are and where their files live
// is config.ClientApps, the list 'servers discover' reads too.
//
// No file is re-serialised: a parser finds where each entry is, and an
// edit splices bytes, so comments, order and formatting stay as they
// were; an added entry is laid out like its neighbours (one line in a
// file written on one line). Connect then disconnect gives back the same
// bytes; connecting twice changes nothing. Take cuts one entry out (its
// comma and the comment on its last line with it, never a comment line
// of its own) and returns its Slot, from which Put puts it back in the
// same place and bytes. Gemini CLI's list of the servers it may start
// ("mcp.allowed") gets Switchboard's entry with it. A file that cannot
// be parsed is refused with a *SyntaxError naming line and column, and
// WriteFile replaces a file atomically, keeping a backup of the previous
// version and, once, of the first. Server says what an entry sets that
// an import carries over, which keys it does not (Unmapped) and whether
// only the app can start it (AppOnly). Detect names the app of a file
// given on its own (an import of a Codex config.toml, say), for Read.
//
// Example:
//
//	d, err := clients.Read(file, data) // file: a config.ClientFile
//	if err != nil {
//		return err // *clients.SyntaxError: path:line:col: …
//	}
//	out, err := d.Add(clients.Entry{Command: "/usr/bin/switchboard", Args: []string{"serve", "--client", "cursor"}})
package clients
