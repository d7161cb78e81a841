package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// The MCP Inspector (a third-party client) runs against the built-in
// servers as a host would: it starts the real switchboard binary over
// stdio, one process per call, with the data kept in a temp dir between
// calls.

// clientsDir holds the pinned third-party clients and the Node 22 they
// need (npm ci there, which 'make test-go' does).
const clientsDir = "../../mcpmanager/testdata/clients"

// inspectorTimeout bounds one inspector run (Node start-up, our server's
// start-up and the call).
var inspectorTimeout = 60 * time.Second

// TestInspector builds the binary once and runs the Inspector against each
// built-in server. A new built-in gets its own subtest here.
func TestInspector(t *testing.T) {
	inspectorBinDir(t) // fail before building if it is missing
	bin := proctest.Switchboard(t)
	t.Run("content-store", func(t *testing.T) { testInspectorContentStore(t, bin) })
	t.Run("workspace", func(t *testing.T) { testInspectorWorkspace(t, bin) })
	t.Run("serve", func(t *testing.T) { testInspectorServe(t, bin) })
}

// testInspectorServe: the Inspector lists and reads prompts and resources
// of the real server-everything through 'switchboard serve', under the
// names and URIs the gateway maps them to.
func testInspectorServe(t *testing.T, bin string) {
	everything := proctest.NPM(t, "mcp-server-everything")
	file := writeFile(t, "mcp.json", `{"mcpServers": {"everything": {"command": `+strconv.Quote(everything)+`}}}`)
	server := []string{bin, "--data-dir", t.TempDir(), "serve", "--config", file}

	var prompts struct {
		Prompts []struct{ Name string } `json:"prompts"`
	}
	decodeInto(t, inspect(t, inspectorArgs(server, "--method", "prompts/list")...).Result, &prompts)
	if !slices.ContainsFunc(prompts.Prompts, func(p struct{ Name string }) bool { return p.Name == "everything__args-prompt" }) {
		t.Fatalf("prompts/list through serve = %+v, want everything__args-prompt", prompts)
	}
	var got struct {
		Messages []struct {
			Content struct{ Text string } `json:"content"`
		} `json:"messages"`
	}
	decodeInto(t, inspect(t, inspectorArgs(server, "--method", "prompts/get", "--prompt-name", "everything__args-prompt", "--prompt-args", "city=Lisbon")...).Result, &got)
	if len(got.Messages) == 0 || got.Messages[0].Content.Text != "What's weather in Lisbon?" {
		t.Fatalf("prompts/get through serve = %+v", got)
	}

	var resources struct {
		Resources []struct{ URI, Name string } `json:"resources"`
	}
	decodeInto(t, inspect(t, inspectorArgs(server, "--method", "resources/list")...).Result, &resources)
	var uri string
	for _, r := range resources.Resources {
		if strings.HasPrefix(r.URI, "switchboard://everything/demo://resource/static/document/") {
			uri = r.URI
			break
		}
	}
	if uri == "" {
		t.Fatalf("resources/list through serve = %+v, want everything's static documents under switchboard://everything/", resources)
	}
	var read struct {
		Contents []struct{ URI, Text string } `json:"contents"`
	}
	decodeInto(t, inspect(t, inspectorArgs(server, "--method", "resources/read", "--uri", uri)...).Result, &read)
	if len(read.Contents) == 0 || read.Contents[0].URI != uri || read.Contents[0].Text == "" {
		t.Fatalf("resources/read %s through serve = %+v", uri, read)
	}
}

func testInspectorWorkspace(t *testing.T, bin string) {
	root := t.TempDir()
	server := []string{bin, "builtin", "workspace", "--root", root}
	run := inspect(t, inspectorArgs(server, "--method", "tools/list", "--strict")...)
	if run.Exit != 0 || strings.Contains(strings.ToLower(run.Stderr), "warning") {
		t.Fatalf("tools/list --strict: exit %d, stderr:\n%s", run.Exit, run.Stderr)
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	decodeInto(t, run.Result, &list)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	for _, want := range []string{"read_file", "write_file", "edit_file", "list_directory", "tree", "search_files", "move_file", "delete_file", "execute_shell"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}

	if r := inspectorTool(t, server, "write_file", map[string]any{"path": "notes/plan.md", "content": "# Plan\nship the inspector test\n"}); r.IsError {
		t.Fatalf("write_file: %s", r.text())
	}
	if b, err := os.ReadFile(filepath.Join(root, "notes", "plan.md")); err != nil || string(b) != "# Plan\nship the inspector test\n" {
		t.Fatalf("file on disk: %q, %v", b, err)
	}
	if r := inspectorTool(t, server, "read_file", map[string]any{"path": "notes/plan.md"}); !strings.Contains(r.text(), "ship the inspector test") {
		t.Fatalf("read_file: %s", r.text())
	}
	if r := inspectorTool(t, server, "search_files", map[string]any{"pattern": "*.md", "content": "inspector"}); !strings.Contains(r.text(), "notes/plan.md:2") {
		t.Fatalf("search_files: %s", r.text())
	}
	if r := inspectorTool(t, server, "execute_shell", map[string]any{"command": "echo from-inspector-$((6*7))"}); !strings.Contains(r.text(), "from-inspector-42") {
		t.Fatalf("execute_shell: %s", r.text())
	}
	// Confinement holds for a third-party client too.
	run = inspect(t, inspectorArgs(server, "--method", "tools/call", "--tool-name", "read_file", "--tool-args-json", `{"path":"../../etc/passwd"}`)...)
	var res toolResult
	if len(run.Result) > 0 {
		decodeInto(t, run.Result, &res)
	}
	if !res.IsError || !strings.Contains(res.text(), "escapes") {
		t.Fatalf("read outside the root: exit %d, %s %s", run.Exit, run.Result, run.Stderr)
	}
}

func testInspectorContentStore(t *testing.T, bin string) {
	server := []string{bin, "builtin", "content-store", "--data-dir", t.TempDir()}

	// tools/list, with the Inspector's schema portability check: --strict
	// fails on errors and prints warnings, and there must be neither.
	run := inspect(t, inspectorArgs(server, "--method", "tools/list", "--strict")...)
	if run.Exit != 0 || strings.Contains(strings.ToLower(run.Stderr), "warning") {
		t.Fatalf("tools/list --strict: exit %d, stderr:\n%s", run.Exit, run.Stderr)
	}
	var list struct {
		Tools []struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
	}
	decodeInto(t, run.Result, &list)
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
		if tl.Description == "" || tl.InputSchema["type"] != "object" {
			t.Errorf("tool %s: description %q, schema %v", tl.Name, tl.Description, tl.InputSchema)
		}
	}
	slices.Sort(names)
	if want := []string{"addContent", "createStore", "deleteContent", "deleteStore", "listContent", "listStores", "readContent", "reindexContent", "search"}; !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}

	var store struct{ ID, Name string }
	inspectorTool(t, server, "createStore", map[string]any{"name": "Runbooks", "description": "operations runbooks"}).decode(t, &store)
	if store.ID != "runbooks" || store.Name != "Runbooks" {
		t.Fatalf("createStore = %+v", store)
	}

	type added struct {
		Added    int
		Contents []struct {
			ContentID, Title, Path, Format string
			Lines                          int
		}
	}
	var text added
	inspectorTool(t, server, "addContent", map[string]any{
		"storeId": "runbooks", "title": "On-call notes",
		"text": "The pager rotation changes on Monday.\nEscalate storage alerts to the platform team.",
	}).decode(t, &text)
	file, err := filepath.Abs("testdata/inspector/kernel-upgrade.md")
	if err != nil {
		t.Fatal(err)
	}
	var fromFile added
	inspectorTool(t, server, "addContent", map[string]any{"storeId": "runbooks", "path": file}).decode(t, &fromFile)
	if text.Added != 1 || fromFile.Added != 1 || text.Contents[0].Title != "On-call notes" {
		t.Fatalf("addContent = %+v, %+v", text, fromFile)
	}
	if c := fromFile.Contents[0]; c.Path != file || c.Format != "md" || c.Title != "Kernel upgrade runbook" || c.Lines != 10 ||
		c.ContentID == text.Contents[0].ContentID || !strings.HasPrefix(c.ContentID, "runbooks:") {
		t.Fatalf("addContent path = %+v", c)
	}

	type hit struct {
		StoreID, ContentID, Title, Path, Section, Snippet string
		Score                                             float64
		FromLine, ToLine                                  int
		MatchLines                                        []int
	}
	var found struct {
		Total uint64
		Hits  []hit
	}
	// The phrase is in the file only; every store is searched.
	inspectorTool(t, server, "search", map[string]any{"query": `"module verification failed"`}).decode(t, &found)
	if found.Total != 1 || len(found.Hits) != 1 {
		t.Fatalf("search phrase: %+v", found)
	}
	h := found.Hits[0]
	if h.ContentID != fromFile.Contents[0].ContentID || h.StoreID != "runbooks" || h.Path != file || h.Section != "Kernel upgrade runbook > Upgrade" ||
		h.FromLine != 7 || h.ToLine != 10 || !slices.Equal(h.MatchLines, []int{10}) || h.Score <= 0 ||
		h.Snippet != `If the node reports "<mark>module</mark> <mark>verification</mark> <mark>failed</mark>", reinstall the signed modules.` {
		t.Fatalf("search phrase hit = %+v", h)
	}
	inspectorTool(t, server, "search", map[string]any{"query": "pager rotation", "storeId": "runbooks", "limit": 5}).decode(t, &found)
	if len(found.Hits) != 1 || found.Hits[0].ContentID != text.Contents[0].ContentID ||
		found.Hits[0].Snippet != "The <mark>pager</mark> <mark>rotation</mark> changes on Monday.\nEscalate storage alerts to the platform team." {
		t.Fatalf("search text = %+v", found)
	}

	var excerpt struct {
		Text       string
		TotalLines int
	}
	// readContent sends the text once, in the text a model reads; its
	// structuredContent is the rest (the range).
	inspectorTool(t, server, "readContent", map[string]any{"contentId": h.ContentID, "fromLine": 10, "toLine": 10}).decodeWithout(t, &excerpt, "text")
	if excerpt.Text != `If the node reports "module verification failed", reinstall the signed modules.` || excerpt.TotalLines != 10 {
		t.Fatalf("readContent = %+v", excerpt)
	}
	var stores struct {
		Stores []struct {
			ID        string
			Documents int
		}
	}
	inspectorTool(t, server, "listStores", nil).decode(t, &stores)
	if len(stores.Stores) != 1 || stores.Stores[0].Documents != 2 {
		t.Fatalf("listStores = %+v", stores)
	}

	// Bad input is a tool result with isError, which the Inspector reports
	// with its own exit status; the message says what to do.
	bad := []struct {
		tool string
		args map[string]any
		msg  string
	}{
		{"search", map[string]any{"query": "pager", "storeId": "nope"}, `no such store "nope"; call listStores to see the store ids`},
		{"addContent", map[string]any{"storeId": "runbooks", "path": filepath.Join(filepath.Dir(file), "missing.md")}, "missing.md: file does not exist (check the path"},
		{"search", map[string]any{"query": " "}, "the query is empty: pass the words to search for"},
	}
	for _, c := range bad {
		run := inspect(t, inspectorArgs(server, "--method", "tools/call", "--tool-name", c.tool, "--tool-args-json", marshalArgs(t, c.args))...)
		var res toolResult
		decodeInto(t, run.Result, &res)
		if run.Exit == 0 || !res.IsError || !strings.Contains(res.text(), c.msg) {
			t.Errorf("%s %v: exit %d, result %s; want an isError result with %q", c.tool, c.args, run.Exit, run.Result, c.msg)
		}
	}
}

// inspectorArgs puts the Inspector's options before the server command
// line, after "--", so no server flag is taken for an Inspector option.
func inspectorArgs(server []string, opts ...string) []string {
	return append(append(slices.Clone(opts), "--"), server...)
}

// inspectorRun is the outcome of one 'inspector --cli --format json' run.
type inspectorRun struct {
	Exit   int
	Result json.RawMessage // the "result" member of its output
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	Stderr string
}

// inspect runs 'inspector --cli --format json ARGS' with the pinned Node 22
// first in PATH and HOME in a temp dir (the Inspector keeps a catalog and
// client config there). It fails the test only if the Inspector cannot be
// run or prints no JSON.
func inspect(t *testing.T, args ...string) inspectorRun {
	t.Helper()
	binDir := inspectorBinDir(t)
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), inspectorTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "inspector"), append([]string{"--cli", "--format", "json"}, args...)...)
	cmd.Env = append(os.Environ(),
		"PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"MCP_CATALOG_PATH="+filepath.Join(home, "catalog.json"),
		"MCP_CLIENT_CONFIG_PATH="+filepath.Join(home, "client.json"),
	)
	cmd.WaitDelay = 5 * time.Second // the server it started holds the pipes until it exits
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	run := inspectorRun{Stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		run.Exit = ee.ExitCode()
	case err != nil:
		t.Fatalf("inspector %v: %v\nstderr: %s", args, err, run.Stderr)
	}
	if ctx.Err() != nil {
		t.Fatalf("inspector %v: no answer within %s\nstderr: %s", args, inspectorTimeout, run.Stderr)
	}
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("inspector %v: exit %d, output is not JSON (%v):\n%s\nstderr: %s", args, run.Exit, err, stdout.String(), run.Stderr)
	}
	run.Result, run.Error = out.Result, out.Error
	return run
}

// inspectorBinDir is the node_modules/.bin of the pinned clients, holding
// the Inspector and Node 22.
func inspectorBinDir(t *testing.T) string {
	t.Helper()
	binDir, err := filepath.Abs(filepath.Join(clientsDir, "node_modules", ".bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"node", "inspector"} {
		if _, err := os.Stat(filepath.Join(binDir, name)); err != nil {
			t.Fatalf("the pinned MCP Inspector is not installed (%v): run 'make test-go', or 'npm ci' in mcpmanager/testdata/clients", err)
		}
	}
	return binDir
}

// runInspector runs the Inspector with args (see inspect) and returns the
// result it printed, failing the test unless it succeeded.
func runInspector(t *testing.T, args ...string) json.RawMessage {
	t.Helper()
	run := inspect(t, args...)
	if run.Exit != 0 || run.Error != nil || len(run.Result) == 0 {
		t.Fatalf("inspector %v: exit %d, error %+v, result %s\nstderr: %s", args, run.Exit, run.Error, run.Result, run.Stderr)
	}
	return run.Result
}

// toolResult is a tools/call result as the Inspector prints it.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func (r toolResult) text() string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// decode reads a successful result's structuredContent into v, checking
// that its text content carries the same JSON.
func (r toolResult) decode(t *testing.T, v any) {
	t.Helper()
	if r.IsError {
		t.Fatalf("tool error: %s", r.text())
	}
	decodeInto(t, r.StructuredContent, v)
	var fromText, fromStructured any
	decodeInto(t, json.RawMessage(r.text()), &fromText)
	decodeInto(t, r.StructuredContent, &fromStructured)
	if a, b := marshalArgs(t, fromText), marshalArgs(t, fromStructured); a != b {
		t.Fatalf("text and structuredContent differ:\n%s\n%s", a, b)
	}
}

// decodeWithout is decode for a tool whose structuredContent is its text
// without the member key (sent once, in the text): v is read from the text.
func (r toolResult) decodeWithout(t *testing.T, v any, key string) {
	t.Helper()
	if r.IsError {
		t.Fatalf("tool error: %s", r.text())
	}
	decodeInto(t, json.RawMessage(r.text()), v)
	var fromText, fromStructured map[string]any
	decodeInto(t, json.RawMessage(r.text()), &fromText)
	decodeInto(t, r.StructuredContent, &fromStructured)
	if _, ok := fromStructured[key]; ok {
		t.Fatalf("structuredContent has %q too: %s", key, r.StructuredContent)
	}
	delete(fromText, key)
	if a, b := marshalArgs(t, fromText), marshalArgs(t, fromStructured); a != b {
		t.Fatalf("text without %q and structuredContent differ:\n%s\n%s", key, a, b)
	}
}

// inspectorTool calls tool on the server command line through the
// Inspector, failing the test unless the call succeeded.
func inspectorTool(t *testing.T, server []string, tool string, args map[string]any) toolResult {
	t.Helper()
	opts := []string{"--method", "tools/call", "--tool-name", tool}
	if args != nil {
		opts = append(opts, "--tool-args-json", marshalArgs(t, args))
	}
	var res toolResult
	decodeInto(t, runInspector(t, inspectorArgs(server, opts...)...), &res)
	return res
}

func decodeInto(t *testing.T, data json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
}

func marshalArgs(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
