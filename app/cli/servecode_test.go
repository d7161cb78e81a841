package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/mcpmanager/codemode"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// writeServeConfig writes config.json with one test server, t1, and
// settings.serve.tools set to tools.
func writeServeConfig(t *testing.T, dir, fs, tools string) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{
		"mcpServers": map[string]any{"t1": map[string]any{"command": fs, "args": []string{"-name", "servecode-t1"}}},
		"settings":   map[string]any{"serve": map[string]any{"tools": tools}, "chat": map[string]any{"policies": map[string]string{"t1__echo": "allow"}}},
	})
	tmp := filepath.Join(dir, "config.json.tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "config.json")); err != nil {
		t.Fatal(err)
	}
}

// toolNames lists cl's tools, sorted.
func toolNames(t *testing.T, cl *client.Client) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	res, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	return names
}

// TestServeCodeModeSetting: settings.serve.tools chooses what 'serve'
// offers without --code. With it set to "code", an app attached to the
// running Switchboard gets code mode's three tools and its scripts call
// the server; set to "direct" while the app stays attached, the app is
// sent tools/list_changed and lists the server's tool. --code=false wins
// over the setting (and runs its own servers).
func TestServeCodeModeSetting(t *testing.T) {
	dir := t.TempDir()
	fs := proctest.FaultServer(t)
	writeServeConfig(t, dir, fs, "code")

	dlines := make(chan string, 256)
	cliProcess(t, dlines, "--data-dir", dir, "daemon")
	waitLine(t, dlines, "sharing the servers of", 60*time.Second)

	lines := make(chan string, 64)
	_, cl, _ := (&app{name: "cursor"}).connect(t, dir, lines)
	waitLine(t, lines, "using the servers of the running Switchboard", 30*time.Second)
	changed := make(chan struct{}, 8)
	cl.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			changed <- struct{}{}
		}
	})
	code := []string{codemode.DescribeFunctionName, codemode.ListFunctionsName, codemode.RunScriptName}
	mcptest.UntilNil(t, "the attached app is offered code mode", func() error {
		if got := toolNames(t, cl); !slices.Equal(got, code) {
			return &mismatch{got, code}
		}
		return nil
	})
	mcptest.UntilNil(t, "a script calls t1's echo", func() error {
		text, isErr := sharedCall(t, cl, codemode.RunScriptName, map[string]any{"script": `return (await tools.t1.echo({text: "through a script"}))`})
		if isErr || !strings.Contains(text, "through a script") {
			return &mismatch{[]string{text}, []string{"through a script"}}
		}
		return nil
	})

	// --code=false: the tools as they are, whatever the setting says.
	cmd, in, out := cliProcess(t, nil, "--data-dir", dir, "serve", "--code=false")
	own := client.NewClient(transport.NewIO(out, in, io.NopCloser(strings.NewReader(""))))
	if err := own.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "own", Version: "1"}
	if _, err := own.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	mcptest.UntilNil(t, "serve --code=false lists t1's tools and not code mode's", func() error {
		got := toolNames(t, own)
		if !slices.Contains(got, "t1__echo") || slices.Contains(got, codemode.RunScriptName) {
			return &mismatch{got, []string{"t1__echo", "…"}}
		}
		return nil
	})
	// Its own servers: t1's tools may be listed from its last run before
	// its process has started (the daemon ran it on this data dir).
	mcptest.UntilNil(t, "serve --code=false runs its own servers, not the running Switchboard's", func() error {
		if len(proctest.Descendants(cmd.Process.Pid)) == 0 {
			return errors.New("no child process")
		}
		return nil
	})

	// The setting changes while the app stays attached.
	writeServeConfig(t, dir, fs, "direct")
	select {
	case <-changed:
	case <-time.After(30 * time.Second):
		t.Fatal("the attached app was sent no tools/list_changed within 30s of settings.serve.tools changing")
	}
	mcptest.UntilNil(t, "the attached app lists t1's tools and not code mode's", func() error {
		got := toolNames(t, cl)
		if !slices.Contains(got, "t1__echo") || slices.Contains(got, codemode.RunScriptName) {
			return &mismatch{got, []string{"t1__echo", "…"}}
		}
		return nil
	})
}

// mismatch is a listing that is not the one wanted yet.
type mismatch struct{ got, want []string }

func (m *mismatch) Error() string {
	return "got " + strings.Join(m.got, ", ") + "; want " + strings.Join(m.want, ", ")
}
