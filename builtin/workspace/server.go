package workspace

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/workspace/shell"
)

// CloseTimeout bounds how long Builtin's close function waits for shells
// and Python to stop.
var CloseTimeout = 10 * time.Second

// Builtin is the workspace as a built-in server. Its Config.Root is the
// workspace root (<data dir>/workspace for the default workspace).
var Builtin = func() builtin.Server {
	b := identity
	b.New = func(cfg builtin.Config) (*server.MCPServer, func() error, error) {
		w, err := Open(Options{Root: cfg.Root})
		if err != nil {
			return nil, nil, err
		}
		return NewServer(w), func() error {
			ctx, cancel := context.WithTimeout(context.Background(), CloseTimeout)
			defer cancel()
			return w.Close(ctx)
		}, nil
	}
	return b
}()

// identity is Builtin without its constructor (which refers back to it).
var identity = builtin.Server{
	Name:        builtin.Workspace,
	Title:       "Workspace",
	Description: "A folder for the model to work in: read, write, edit, search and organise files, and run shell commands and Python.",
	Version:     "1.0.0",
	Instructions: `The workspace is one folder (the root). Every path is relative to it; absolute paths work only inside it, and nothing outside it (nor symbolic links leading out) can be reached by the file tools.
Explore with tree and list_directory, find things with search_files, read with read_file (line ranges for big files).
Change files with edit_file (exact, unique search and replace: read the file first and copy the text exactly) or write_file for new files and rewrites.
execute_shell runs commands in a persistent shell that starts in the root and keeps its working directory and variables between calls; the user can watch it and type in it. Prefer the file tools for reading and editing files, the shell for building, testing and git.`,
}

// NewServer exposes w as an MCP server with the tools read_file,
// write_file, edit_file, list_directory, tree, search_files, move_file,
// delete_file, execute_shell and execute_python. Every failure is a tool
// result with isError set, never a protocol error. The caller still owns
// (and closes) w.
func NewServer(w *Workspace) *server.MCPServer {
	srv := identity.MCPServer()
	h := handlers{w}
	srv.AddTools(
		server.ServerTool{Tool: readFileTool, Handler: h.readFile},
		server.ServerTool{Tool: writeFileTool, Handler: h.writeFile},
		server.ServerTool{Tool: editFileTool, Handler: h.editFile},
		server.ServerTool{Tool: listDirectoryTool, Handler: h.listDirectory},
		server.ServerTool{Tool: treeTool, Handler: h.tree},
		server.ServerTool{Tool: searchFilesTool, Handler: h.searchFiles},
		server.ServerTool{Tool: moveFileTool, Handler: h.moveFile},
		server.ServerTool{Tool: deleteFileTool, Handler: h.deleteFile},
		server.ServerTool{Tool: executeShellTool, Handler: h.executeShell},
		server.ServerTool{Tool: executePythonTool, Handler: h.executePython},
	)
	return srv
}

// outputSchema is mcp.WithOutputSchema[T] with each ["null", X] type made
// X: the results always send their lists (empty, never null), and a
// single type is what clients that map schemas onto one-type dialects
// (Gemini's OpenAPI subset) accept.
func outputSchema[T any]() mcp.ToolOption {
	return func(t *mcp.Tool) {
		mcp.WithOutputSchema[T]()(t)
		for _, v := range t.OutputSchema.Properties {
			notNull(v)
		}
		for _, v := range t.OutputSchema.Defs {
			notNull(v)
		}
	}
}

// notNull rewrites, in place, every "type": ["null", X] in schema v to "type": X.
func notNull(v any) {
	switch v := v.(type) {
	case map[string]any:
		if ts, ok := v["type"].([]any); ok && len(ts) == 2 {
			for i, t := range ts {
				if t == "null" {
					v["type"] = ts[1-i]
				}
			}
		}
		for _, c := range v {
			notNull(c)
		}
	case []any:
		for _, c := range v {
			notNull(c)
		}
	}
}

const pathHelp = "Path relative to the workspace root, with forward slashes (e.g. src/main.go)."

var (
	readFileTool = mcp.NewTool("read_file",
		mcp.WithDescription(fmt.Sprintf("Read a UTF-8 text file of the workspace. Returns its lines exactly as stored (no line numbers added); "+
			"without a range, lines 1 to %d. For big files pass fromLine/toLine (1-based, inclusive): the result ends with a note giving the "+
			"total number of lines and the next line to read. At most %d KiB per call. Binary files, devices, pipes and files with several "+
			"hard links are refused.", MaxReadLines, MaxReadBytes>>10)),
		mcp.WithTitleAnnotation("Read file"),
		outputSchema[ReadResult](),
		mcp.WithString("path", mcp.Required(), mcp.Description(pathHelp)),
		mcp.WithNumber("fromLine", mcp.Description("First line to read (default 1)."), mcp.Min(1)),
		mcp.WithNumber("toLine", mcp.Description(fmt.Sprintf("Last line to read (default fromLine+%d).", MaxReadLines-1)), mcp.Min(1)),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false), // mcp-go defaults it to true
		mcp.WithOpenWorldHintAnnotation(false),
	)
	writeFileTool = mcp.NewTool("write_file",
		mcp.WithDescription("Create a file, or replace a file's whole content, in the workspace. Missing parent directories are created. "+
			"The write is atomic: the file holds either the old or the new content, never a mix. To change part of an existing file, "+
			"prefer edit_file. Symbolic links and hard-linked files are not written through."),
		mcp.WithTitleAnnotation("Write file"),
		mcp.WithString("path", mcp.Required(), mcp.Description(pathHelp)),
		mcp.WithString("content", mcp.Required(), mcp.Description("The complete new content of the file.")),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	editFileTool = mcp.NewTool("edit_file",
		mcp.WithDescription("Replace one exact piece of text in a file: old_string must occur exactly once in the file (whitespace and "+
			"indentation included), and is replaced by new_string. If it occurs zero times or several times nothing changes and the error "+
			"says how many matches there were: read the file again and include more surrounding lines to make old_string unique. "+
			"To delete text, pass an empty new_string."),
		mcp.WithTitleAnnotation("Edit file"),
		mcp.WithString("path", mcp.Required(), mcp.Description(pathHelp)),
		mcp.WithString("old_string", mcp.Required(), mcp.Description("The exact text to replace, copied from read_file; must be unique in the file.")),
		mcp.WithString("new_string", mcp.Required(), mcp.Description("The text to put in its place.")),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	listDirectoryTool = mcp.NewTool("list_directory",
		mcp.WithDescription(fmt.Sprintf("List one directory of the workspace: each entry with its type (file, dir/, symlink -> target, "+
			"special files named) and size; entries excluded by .gitignore are marked (gitignored). Names that could be misread "+
			"(spaces at either end, control characters, \" -> \") are shown quoted, with Go escapes. At most %d entries. "+
			"Use tree for several levels at once.", MaxListEntries)),
		mcp.WithTitleAnnotation("List directory"),
		mcp.WithString("path", mcp.Description("Directory relative to the workspace root (default: the root).")),
		outputSchema[Listing](),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false), // mcp-go defaults it to true
		mcp.WithOpenWorldHintAnnotation(false),
	)
	treeTool = mcp.NewTool("tree",
		mcp.WithDescription(fmt.Sprintf("Show the directory tree under a path, indented, down to a depth (default %d, at most %d). "+
			"Skips what .gitignore files exclude (nested ones too), .git, node_modules and similar; symbolic links are shown, not followed. "+
			"Names that could be misread are quoted, as by list_directory. At most %d entries. A good first look at a project.",
			DefaultTreeDepth, MaxTreeDepth, MaxTreeEntries)),
		mcp.WithTitleAnnotation("Directory tree"),
		outputSchema[TreeResult](),
		mcp.WithString("path", mcp.Description("Directory relative to the workspace root (default: the root).")),
		mcp.WithNumber("depth", mcp.Description(fmt.Sprintf("Levels to show (default %d).", DefaultTreeDepth)), mcp.Min(1), mcp.Max(float64(MaxTreeDepth))),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false), // mcp-go defaults it to true
		mcp.WithOpenWorldHintAnnotation(false),
	)
	searchFilesTool = mcp.NewTool("search_files",
		mcp.WithDescription(fmt.Sprintf("Find files by name and/or find text in files, under a directory of the workspace (skipping what "+
			".gitignore excludes). With pattern only: the paths whose names match the glob. With content: the matching lines as "+
			"`path:line: text`, searching every text file or only those matching pattern. At most %d results.", MaxSearchResults)),
		mcp.WithTitleAnnotation("Search files"),
		mcp.WithString("pattern", mcp.Description("Glob over file names, .gitignore style: \"*.go\" matches at any depth, "+
			"\"cmd/*/main.go\" or \"**/test/*.py\" match paths from the search directory.")),
		mcp.WithString("path", mcp.Description("Directory to search, relative to the workspace root (default: the root).")),
		mcp.WithString("content", mcp.Description("Text to find in files: a regular expression (RE2 syntax, like grep -E), "+
			"e.g. \"func \\\\w+Handler\" or \"TODO|FIXME\"; if it is not a valid expression it is searched for literally.")),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false), // mcp-go defaults it to true
		mcp.WithOpenWorldHintAnnotation(false),
	)
	moveFileTool = mcp.NewTool("move_file",
		mcp.WithDescription("Move or rename a file or directory within the workspace. Fails if the destination exists (nothing is "+
			"overwritten); missing parent directories of the destination are created."),
		mcp.WithTitleAnnotation("Move file"),
		mcp.WithString("path", mcp.Required(), mcp.Description("What to move, relative to the workspace root.")),
		mcp.WithString("destination", mcp.Required(), mcp.Description("New path, relative to the workspace root.")),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	deleteFileTool = mcp.NewTool("delete_file",
		mcp.WithDescription("Delete a file, a symbolic link (not what it points to) or an empty directory from the workspace. "+
			"Cannot be undone. Directories that still hold files are refused."),
		mcp.WithTitleAnnotation("Delete file"),
		mcp.WithString("path", mcp.Required(), mcp.Description(pathHelp)),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	executeShellTool = mcp.NewTool("execute_shell",
		mcp.WithDescription(fmt.Sprintf("Run a command line (or a multi-line script) in a persistent shell (bash, or sh) that starts in the "+
			"workspace root. Each call runs in the directory your previous call left off in (the user's own cd in the terminal does not "+
			"move it); variables and functions persist between calls of the same session, and the user sees the commands and may type "+
			"in the same terminal. Returns the output (stdout and stderr together, colours removed, at "+
			"most %d KiB: the start and the end), the exit code and the working directory. A command still running after timeoutMs "+
			"(default %d s) is stopped together with everything it started. Interactive programs (editors, pagers, prompts) do not work: "+
			"use non-interactive flags (git --no-pager, -y). Run servers in the background (cmd > log 2>&1 &). The shell is not "+
			"confined to the workspace.", shell.MaxOutput>>10, int(shell.DefaultTimeout/time.Second))),
		mcp.WithTitleAnnotation("Run shell command"),
		mcp.WithString("command", mcp.Required(), mcp.Description("The command line or script, as typed at a prompt.")),
		mcp.WithString("session", mcp.Description("Name of the shell session (default \"default\"); use another name for a "+
			"second, independent shell, e.g. to keep a server running.")),
		mcp.WithNumber("timeoutMs", mcp.Description(fmt.Sprintf("Timeout in milliseconds (default %d, at most %d).",
			shell.DefaultTimeout.Milliseconds(), shell.MaxTimeout.Milliseconds())), mcp.Min(1)),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(true),
	)
	executePythonTool = mcp.NewTool("execute_python",
		mcp.WithDescription(fmt.Sprintf("Run a Python 3 program in a new interpreter in the workspace root and return its output "+
			"(stdout and stderr, at most %d KiB) and exit code. Nothing persists between calls except files: write results to files, "+
			"or print them. Processes it starts end with it: start lasting ones (servers) with execute_shell. "+
			"Stopped after timeoutMs (default %d s). Only available when python3 is installed.",
			shell.MaxOutput>>10, int(shell.DefaultTimeout/time.Second))),
		mcp.WithTitleAnnotation("Run Python"),
		mcp.WithString("code", mcp.Required(), mcp.Description("The Python source to run.")),
		mcp.WithNumber("timeoutMs", mcp.Description(fmt.Sprintf("Timeout in milliseconds (default %d, at most %d).",
			shell.DefaultTimeout.Milliseconds(), shell.MaxTimeout.Milliseconds())), mcp.Min(1)),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(true),
	)
)

type handlers struct{ w *Workspace }

// result is a tool result: text for the model, v as structuredContent.
func result(v any, text string) *mcp.CallToolResult {
	return mcp.NewToolResultStructured(v, text)
}

func toolError(err error) *mcp.CallToolResult { return mcp.NewToolResultError(err.Error()) }

// argsError is a tool's arguments refused, named by the tool as its other
// errors are.
func argsError(tool string, err error) *mcp.CallToolResult {
	return toolError(fmt.Errorf("%s: %w", tool, err))
}

func (h handlers) readFile(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	p, from, to := a.Str("path", true, true), a.Count("fromLine"), a.Count("toLine")
	if a.Err != nil {
		return argsError("read_file", a.Err), nil
	}
	res, err := h.w.ReadFile(p, from, to)
	if err != nil {
		return toolError(err), nil
	}
	text := res.Content
	switch {
	case res.TotalLines == 0:
		text = fmt.Sprintf("[%s is empty]", res.Path)
	case res.Truncated || res.FromLine > 1 || res.ToLine < res.TotalLines:
		note := fmt.Sprintf("[lines %d-%d of %d", res.FromLine, res.ToLine, res.TotalLines)
		if res.Truncated {
			note += fmt.Sprintf("; stopped at the %d KiB limit", MaxReadBytes>>10)
		}
		if res.ToLine < res.TotalLines {
			note += fmt.Sprintf("; call read_file with fromLine=%d to read on", res.ToLine+1)
		}
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += note + "]"
	}
	return result(res, text), nil
}

func (h handlers) writeFile(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	p, content := a.Str("path", true, true), a.Str("content", true, false)
	if a.Err != nil {
		return argsError("write_file", a.Err), nil
	}
	res, err := h.w.WriteFile(p, content)
	if err != nil {
		return toolError(err), nil
	}
	verb := "replaced"
	if res.Created {
		verb = "created"
	}
	return result(res, fmt.Sprintf("%s %s (%d bytes)", verb, res.Path, res.Bytes)), nil
}

func (h handlers) editFile(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	p, old, repl := a.Str("path", true, true), a.Str("old_string", true, false), a.Str("new_string", true, false)
	if a.Err != nil {
		return argsError("edit_file", a.Err), nil
	}
	res, err := h.w.EditFile(p, old, repl)
	if err != nil {
		return toolError(err), nil
	}
	return result(res, fmt.Sprintf("edited %s: replaced 1 occurrence starting at line %d", res.Path, res.Line)), nil
}

func (h handlers) listDirectory(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	p := a.Str("path", false, false)
	if a.Err != nil {
		return argsError("list_directory", a.Err), nil
	}
	if p == "" {
		p = "."
	}
	res, err := h.w.ListDirectory(p)
	if err != nil {
		return toolError(err), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s/ (%d entries)\n", shown(res.Path), len(res.Entries))
	for _, e := range res.Entries {
		name := shown(e.Name)
		switch e.Type {
		case "dir":
			b.WriteString(name + "/")
		case "symlink":
			b.WriteString(name + " -> " + shown(e.Target))
		case "file":
			fmt.Fprintf(&b, "%s  %d bytes", name, e.Size)
		default:
			b.WriteString(name)
		}
		if note := kindNote(e); note != "" {
			b.WriteString("  " + note)
		}
		if e.Ignored {
			b.WriteString("  (gitignored)")
		}
		b.WriteString("\n")
	}
	if res.More {
		fmt.Fprintf(&b, "[only the first %d entries; use search_files to find more]\n", MaxListEntries)
	}
	return result(res, b.String()), nil
}

func (h handlers) tree(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	p, depth := a.Str("path", false, false), a.Count("depth")
	if a.Err != nil {
		return argsError("tree", a.Err), nil
	}
	if p == "" {
		p = "."
	}
	res, err := h.w.Tree(ctx, p, depth)
	if err != nil {
		return toolError(err), nil
	}
	text := res.Text
	var notes []string
	if res.Ignored > 0 {
		notes = append(notes, fmt.Sprintf("%d ignored entries not shown", res.Ignored))
	}
	if res.DepthLimited {
		notes = append(notes, "deeper levels not shown: call tree on a subdirectory or with a larger depth")
	}
	if res.Truncated {
		notes = append(notes, fmt.Sprintf("stopped at %d entries: call tree on a subdirectory", MaxTreeEntries))
	}
	if len(notes) > 0 {
		text += "[" + strings.Join(notes, "; ") + "]"
	}
	return result(res, text), nil
}

func (h handlers) searchFiles(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	pattern, p, content := a.Str("pattern", false, false), a.Str("path", false, false), a.Str("content", false, false)
	if a.Err != nil {
		return argsError("search_files", a.Err), nil
	}
	res, err := h.w.Search(ctx, pattern, p, content)
	if err != nil {
		return toolError(err), nil
	}
	var b strings.Builder
	for _, f := range res.Files {
		b.WriteString(shown(f) + "\n")
	}
	for _, m := range res.Matches {
		fmt.Fprintf(&b, "%s:%d: %s\n", shown(m.Path), m.Line, m.Text)
	}
	if b.Len() == 0 {
		b.WriteString("no matches\n")
	}
	if res.Literal {
		b.WriteString("[content is not a valid regular expression, so it was searched for literally]\n")
	}
	if res.Truncated {
		fmt.Fprintf(&b, "[stopped at %d results: narrow the search with path or pattern]\n", MaxSearchResults)
	}
	if res.Skipped > 0 {
		fmt.Fprintf(&b, "[%d binary, large or hard-linked files not searched]\n", res.Skipped)
	}
	return result(res, b.String()), nil
}

func (h handlers) moveFile(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	p, dst := a.Str("path", true, true), a.Str("destination", true, true)
	if a.Err != nil {
		return argsError("move_file", a.Err), nil
	}
	res, err := h.w.Move(p, dst)
	if err != nil {
		return toolError(err), nil
	}
	return result(res, fmt.Sprintf("moved %s to %s", res.From, res.To)), nil
}

func (h handlers) deleteFile(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	p := a.Str("path", true, true)
	if a.Err != nil {
		return argsError("delete_file", a.Err), nil
	}
	res, err := h.w.Delete(p)
	if err != nil {
		return toolError(err), nil
	}
	return result(res, fmt.Sprintf("deleted %s %s", res.Type, res.Path)), nil
}

// ShellResult is execute_shell's structured content.
type ShellResult struct {
	Session string `json:"session"`
	shell.Result
}

func (h handlers) executeShell(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	command, name, ms := a.Str("command", true, true), a.Str("session", false, false), a.Count("timeoutMs")
	if a.Err != nil {
		return argsError("execute_shell", a.Err), nil
	}
	if name == "" {
		name = shell.DefaultSession
	}
	s, err := h.w.Session(name)
	if err != nil {
		return toolError(fmt.Errorf("execute_shell: %w", err)), nil
	}
	timeout := shell.EffectiveTimeout(time.Duration(ms) * time.Millisecond)
	res, err := s.Exec(ctx, command, timeout)
	if err != nil {
		return toolError(fmt.Errorf("execute_shell: %w", err)), nil
	}
	var b strings.Builder
	b.WriteString(res.Output)
	if res.Output == "" {
		b.WriteString("(no output)")
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	reset := fmt.Sprintf("session %q was restarted: its working directory and variables were reset to the workspace root", name)
	switch {
	case res.Replaced != "" && res.Restarted && !res.TimedOut:
		fmt.Fprintf(&b, "[the command replaced the shell with another shell (%s), which cannot run commands for you, so %s. "+
			"To run a command in another shell, call it with the command instead (bash -c '…')]", shown(res.Replaced), reset)
	case res.Replaced != "" && res.Restarted:
		fmt.Fprintf(&b, "[timed out after %s; the command had replaced the shell with another program (%s), so %s]", timeout, shown(res.Replaced), reset)
	case res.IgnoredInterrupt:
		fmt.Fprintf(&b, "[timed out after %s; the command had made the shell ignore interrupts (trap '' INT), so the shell was stopped "+
			"before it ran anything more, and %s]", timeout, reset)
	case res.Restarted:
		fmt.Fprintf(&b, "[timed out after %s and the shell did not recover, so %s]", timeout, reset)
	case res.TimedOut && res.ExitCode != -1:
		// The end came after the interrupt: the command handles SIGINT
		// itself (trap '…' INT) and went on, or was just ending.
		fmt.Fprintf(&b, "[timed out after %s and interrupted, but the command did not stop there: it handles interrupts itself (a trap on INT) "+
			"or was just ending, and ran on to its end (exit code %d). Pass a larger timeoutMs (at most %d)]",
			timeout, res.ExitCode, shell.MaxTimeout.Milliseconds())
	case res.TimedOut:
		fmt.Fprintf(&b, "[timed out after %s: the command and every process it started were stopped (exit code %d); the shell keeps its working directory and variables. "+
			"Pass a larger timeoutMs (at most %d), or run long commands in the background (cmd > log 2>&1 &) and check the log]",
			timeout, res.ExitCode, shell.MaxTimeout.Milliseconds())
	case res.ShellExited:
		fmt.Fprintf(&b, "[exit code %d: the command ended the shell (exit, exec or set -e); the next command starts a new shell in the workspace root]", res.ExitCode)
	default:
		fmt.Fprintf(&b, "[exit code %d; working directory %s]", res.ExitCode, shown(res.Cwd))
	}
	r := result(ShellResult{Session: name, Result: res}, b.String())
	r.IsError = res.TimedOut || res.Restarted
	return r, nil
}

func (h handlers) executePython(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := builtin.ArgsOf(req, invalid)
	code, ms := a.Str("code", true, true), a.Count("timeoutMs")
	if a.Err != nil {
		return argsError("execute_python", a.Err), nil
	}
	timeout := shell.EffectiveTimeout(time.Duration(ms) * time.Millisecond)
	res, err := h.w.RunPython(ctx, code, timeout)
	if err != nil {
		return toolError(fmt.Errorf("execute_python: %w", err)), nil
	}
	var b strings.Builder
	b.WriteString(res.Output)
	if res.Output == "" {
		b.WriteString("(no output)")
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	switch {
	case res.TimedOut:
		fmt.Fprintf(&b, "[timed out after %s: Python and every process it started were killed; pass a larger timeoutMs (at most %d)]", timeout, shell.MaxTimeout.Milliseconds())
	case res.LeftRunning:
		fmt.Fprintf(&b, "[exit code %d; processes it left running were killed]", res.ExitCode)
	default:
		fmt.Fprintf(&b, "[exit code %d]", res.ExitCode)
	}
	if res.OutputCut {
		b.WriteString("\n[a process it started in a session of its own kept its output open; what it wrote later is not shown]")
	}
	r := result(res, b.String())
	r.IsError = res.TimedOut
	return r, nil
}
