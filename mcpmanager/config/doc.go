// Package config reads, validates, merges and saves MCP server configs.
//
// ParseContext reads the files other hosts write — Claude Desktop, Claude Code,
// Cursor, Windsurf ({"mcpServers": ...}), VS Code (.vscode/mcp.json and
// settings.json, with ${input:id} placeholders) and the legacy
// {"servers": [...]} array — detecting the format from the content and
// accepting JSONC (comments, trailing commas, a BOM). Every problem is
// reported at once, with its JSON path and line:column (a syntax error in
// words: "a value is missing after "B":", not encoding/json's), and the valid
// servers of a partly broken file are still returned. Keys this package does
// not know are kept in Server.Extra and written back. A local server's
// "envFile" (VS Code's and Cursor's) names a KEY=VALUE file whose variables
// it gets under its own "env" (ReadEnvFile), read each time the config is
// applied; "${VAR:-default}" (Claude Code's) reads VAR with a default.
// A README block pasted with its Markdown fence (```json … ```) is read
// from inside the fence, with a warning; text that is not JSON at all
// (Markdown, a path that a symbolic link left, HTML, YAML, TOML) is
// refused saying what it is, and JSON without servers lists the keys of
// every app in ClientApps. Another app's "timeout" is its tool timeout:
// milliseconds in a file that is Gemini CLI's (by its path, "mcp.allowed"
// or a key only Gemini CLI writes), else seconds up to 3600 (Cline's and
// Roo Code's) and milliseconds above.
//
// The app's own config.json is a Config: Load treats a missing file as empty,
// Save writes atomically and keeps the previous version as config.json.bak,
// and Edit is the read-modify-write to use: it holds an OS lock on
// config.json.lock, so edits by several processes at once are all kept.
// StampOf and Watch let a window notice what another process saved. The
// "settings" object belongs to other packages, each reading and writing its
// own key through a Section (see ExampleSection), which reports a malformed
// section with its JSON path.
// Parsing is linear in the file's size, and ParseContext and LoadContext
// stop when their context ends.
// Plan previews an import per server (added, changed, unchanged,
// conflicting, invalid) and Apply carries it out on a copy.
//
// See ExampleEdit for an import from start to end, and ExampleParseContext and
// ExamplePlan for each step.
//
// Discover finds the config files of those hosts on this machine.
//
// # Templates, profiles and metadata
//
// A server entry may be a template: `{{param}}` placeholders in `command`, `args`, `env`,
// `cwd`, `url` or `headers`, and a `"parameters"` JSON Schema describing them (`required`,
// `type`, `enum`, `pattern`, `default`; `"writeOnly": true` or `"format": "password"` marks a
// secret). Templates are not run; adding a server from one checks every value and says which
// parameter is wrong and why. An optional parameter left empty drops the argument, variable
// or header that uses it. `"profiles": {"work": {"url": "…", "args": […], "env": {…},
// "headers": {…}}}` overrides a server per environment (`url` and `args` replace, `env` and
// `headers` merge; an empty value removes the key); the active profile is
// `settings.library.profile`. `"metadata": {"description", "tags", "docsUrl", "color",
// "icon"}` is what the Servers page shows and edits. Other hosts ignore these keys, so an
// exported config still works there.
package config
