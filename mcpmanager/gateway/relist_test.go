package gateway

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/builtin"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/builtin/mcptest"
	"github.com/switchboard-app/switchboard/builtin/workspace"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// slowFirstList is a built-in's in-process session whose first tools/list
// gets no answer before the router gives up on it (ListTimeout), as under
// heavy load; later ones are the server's own.
type slowFirstList struct {
	*client.Client
	lists atomic.Int64
}

func (c *slowFirstList) ListTools(ctx context.Context, req mcp.ListToolsRequest) (*mcp.ListToolsResult, error) {
	if c.lists.Add(1) == 1 {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return c.Client.ListTools(ctx, req)
}

type slowSource struct {
	name string
	cl   *slowFirstList
}

func (s slowSource) Name() string                   { return s.name }
func (s slowSource) Client() (router.Client, error) { return s.cl, nil }
func (s slowSource) CallTimeout() time.Duration     { return 0 }

// TestWatchRelistsTimedOutBuiltins: the built-ins (the real content store
// and workspace, in process as 'serve' runs them) whose first tools/list
// timed out are published once a listing comes, with
// notifications/tools/list_changed, though neither server changes: they
// stayed out of 'serve --http' (67 of 86 tools) until another server did.
func TestWatchRelistsTimedOutBuiltins(t *testing.T) {
	oldList, oldWait := router.ListTimeout, router.RelistWait
	router.ListTimeout, router.RelistWait = 100*time.Millisecond, time.Millisecond
	t.Cleanup(func() { router.ListTimeout, router.RelistWait = oldList, oldWait })
	reg := router.New(router.Options{})
	for _, b := range []builtin.Server{contentstore.Builtin, workspace.Builtin} {
		srv, release, err := b.Start(builtin.Config{Root: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = release() })
		reg.Add(slowSource{b.Name, &slowFirstList{Client: mcptest.Connect(t, srv)}})
	}
	g := New(reg, Options{Version: "test"})
	sess := listener(t, g)
	ctx, cancel := context.WithCancel(t.Context())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		g.Watch(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-watched
	})
	want := []string{contentstore.Builtin.Name + "__search", workspace.Builtin.Name + "__read_file"}
	published := func() bool {
		for _, name := range want {
			if g.srv.GetTool(name) == nil {
				return false
			}
		}
		return true
	}
	deadline := time.After(10 * time.Second)
	for !published() {
		select {
		case n := <-sess.notes:
			if n.Method != string(mcp.MethodNotificationToolsListChanged) {
				continue
			}
		case <-deadline:
			t.Fatalf("%v not published 10 s after their listing timed out: the gateway has %d tools", want, len(g.srv.ListTools()))
		}
	}
}
