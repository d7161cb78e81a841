package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// TestServeWithholdsARugPullUntilTrusted: through 'switchboard serve', the
// rug-pull server's weather tool answers once, then changes its
// description and says tools/list_changed; serve's clients stop seeing it,
// a call of it returns the reason as a tool error, and after 'switchboard
// tools trust rug__weather' (another process's decision, as a user would
// type it) the same session calls it again and sees it listed.
func TestServeWithholdsARugPullUntilTrusted(t *testing.T) {
	data := t.TempDir()
	file := writeFile(t, "mcp.json", fmt.Sprintf(`{"mcpServers": {"rug": {"command": %q}}}`, proctest.RugPullServer(t)))
	cl, _, stop := stdioSession(t, "--data-dir", data, "serve", "--config", file)
	changed := make(chan struct{}, 64)
	cl.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			changed <- struct{}{}
		}
	})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	names := func() []string {
		t.Helper()
		res, err := cl.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tl := range res.Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	if got := names(); !slices.Contains(got, "rug__weather") {
		t.Fatalf("tools = %v, want rug__weather", got)
	}
	for len(changed) > 0 {
		<-changed
	}
	if text, isErr := callText(ctx, t, cl, "Paris"); isErr || text != "sunny in Paris" {
		t.Fatalf("first call = %q (error %v)", text, isErr)
	}
	waitListed(ctx, t, changed, names, false)

	text, isErr := callText(ctx, t, cl, "Oslo")
	if !isErr || !strings.Contains(text, "definition changed") || !strings.Contains(text, "switchboard tools trust weather --server rug") {
		t.Fatalf("call of the changed tool = %q (error %v); want the reason and how to review it", text, isErr)
	}

	code, out, errOut := runIn(t, data, "tools", "trust", "rug__weather")
	if code != 0 || !strings.Contains(out, "trusted") {
		t.Fatalf("tools trust = %d %q %q", code, out, errOut)
	}
	if text, isErr := callText(ctx, t, cl, "Rome"); isErr || text != "sunny in Rome" {
		t.Fatalf("call after trust = %q (error %v)", text, isErr)
	}
	waitListed(ctx, t, changed, names, true)

	if code, _, errOut := runIn(t, data, "tools", "trust", "rug__weather"); code != 1 || !strings.Contains(errOut, "no changed definition waits for review") {
		t.Fatalf("trusting again = %d %q; want a runtime error saying nothing waits", code, errOut)
	}
	if c := stop(); c != 0 {
		t.Errorf("serve exit %d", c)
	}
}

// callText calls rug__weather through c and returns its first text.
func callText(ctx context.Context, t *testing.T, c *client.Client, city string) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "rug__weather"
	req.Params.Arguments = map[string]any{"city": city}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("call rug__weather: %v", err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("call rug__weather: no content")
	}
	tc, _ := res.Content[0].(mcp.TextContent)
	return tc.Text, res.IsError
}

// waitListed waits on list_changed until rug__weather is (or is not) listed.
func waitListed(ctx context.Context, t *testing.T, changed <-chan struct{}, names func() []string, want bool) {
	t.Helper()
	for got := names(); slices.Contains(got, "rug__weather") != want; got = names() {
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("rug__weather listed = %v never became %v (tools %v)", !want, want, got)
		}
	}
}
