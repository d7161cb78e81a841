package host

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/builtin/contentstore"
	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
)

// secretWord is in the last line of secret.txt, past what the model sees
// of it: only a read of the kept result finds it. secretLine is that
// line's text, which a read or a hit shows (a query only echoes the word).
const (
	secretWord = "zanzibarquux"
	secretLine = "the password is " + secretWord
)

// withSecret writes secret.txt (6 KB, secretWord on its last line) to the
// workspace and returns a second chat of lc's history, whose model reads
// it: its result is capped and kept. It returns that chat's turn and the
// kept result's id.
func withSecret(t *testing.T, lc *longChat) (chat.Turn, string) {
	t.Helper()
	var b strings.Builder
	for i := 1; b.Len() < 6_000; i++ {
		fmt.Fprintf(&b, "line %03d: the quick brown fox jumps over the lazy dog, note %d\n", i, i)
	}
	b.WriteString("last line: " + secretLine + "\n")
	if err := os.WriteFile(filepath.Join(WorkspaceRoot(lc.h.dir), "secret.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	row, err := lc.hist.CreateChat(t.Context(), history.Chat{Title: "B"})
	if err != nil {
		t.Fatal(err)
	}
	tb := lc.turn
	tb.ChatID = row.ID
	lc.llm.Enqueue(
		providertest.Reply{ToolCalls: []providertest.ToolCall{{Name: "workspace__read_file", Arguments: `{"path":"secret.txt"}`}}},
		providertest.Reply{Text: "I saw the start."},
	)
	res := sendTurn(t, lc, tb, "read secret.txt")
	if len(res.ToolCalls) != 1 || strings.Contains(lastToolMessage(t, lc), secretLine) {
		t.Fatalf("chat B's read: %+v; the model saw the last line", res.ToolCalls)
	}
	return tb, keptID(t, res.ToolCalls[0].Result)
}

func sendTurn(t *testing.T, lc *longChat, tu chat.Turn, text string) chat.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	tu.Text = text
	res, err := lc.eng.Send(ctx, tu)
	if err != nil {
		t.Fatalf("send %q: %v", text, err)
	}
	return res
}

// keptID reads the id of the handle a stored result carries, as JSON (the
// handle's field names are the test's subject, not its premise).
func keptID(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v struct {
		Meta map[string]map[string]any `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	k := v.Meta[chat.MetaKept]
	for _, f := range []string{"id", "contentId"} {
		if id, _ := k[f].(string); id != "" {
			return id
		}
	}
	t.Fatalf("the result was not kept: %.300s", raw)
	return ""
}

// lastToolMessage is the last tool message of the model's last request.
func lastToolMessage(t *testing.T, lc *longChat) string {
	t.Helper()
	reqs := lc.llm.Requests()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[len(reqs)-1], &req); err != nil {
		t.Fatal(err)
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "tool" {
			return req.Messages[i].Content
		}
	}
	return ""
}

// TestChatCannotReadAnotherChatsKeptResult: chat B keeps a capped result;
// chat A's model, given B's id, gets nothing of it by any tool it has —
// the content store's read and search, read_result by id or by query —
// while B's own model reads it on.
func TestChatCannotReadAnotherChatsKeptResult(t *testing.T) {
	lc := newLongChat(t)
	tb, id := withSecret(t, lc)

	lc.llm.Enqueue(
		providertest.Reply{When: "chat A", ToolCalls: []providertest.ToolCall{
			{Name: "content-store__readContent", Arguments: fmt.Sprintf(`{"contentId":%q,"fromLine":1,"toLine":500}`, id)},
			{Name: "content-store__search", Arguments: fmt.Sprintf(`{"query":%q}`, secretWord)},
			{Name: chat.ReadResultName, Arguments: fmt.Sprintf(`{"id":%q,"fromLine":1}`, id)},
			{Name: chat.ReadResultName, Arguments: fmt.Sprintf(`{"query":%q}`, secretWord)},
		}},
		providertest.Reply{Text: "Nothing there."},
	)
	res := sendTurn(t, lc, lc.turn, "chat A: read what chat B kept")
	if len(res.ToolCalls) != 4 {
		t.Fatalf("%d calls", len(res.ToolCalls))
	}
	for _, c := range res.ToolCalls {
		if strings.Contains(string(c.Result), "password is") {
			t.Fatalf("chat A read chat B's kept result with %s: %.400s", c.Tool, c.Result)
		}
	}

	lc.llm.Enqueue(
		providertest.Reply{When: "chat B", ToolCalls: []providertest.ToolCall{{Name: chat.ReadResultName, Arguments: fmt.Sprintf(`{"id":%q,"query":%q}`, id, secretWord)}}},
		providertest.Reply{Text: "Found it."},
	)
	own := sendTurn(t, lc, tb, "chat B: find the password")
	if len(own.ToolCalls) != 1 || own.ToolCalls[0].IsError || !strings.Contains(string(own.ToolCalls[0].Result), "password is") {
		t.Fatalf("chat B could not search its own kept result: %+v", own.ToolCalls)
	}
}

// mcpSession is an MCP client on serve(in, out), stopped with the test.
func mcpSession(t *testing.T, serve func(ctx context.Context, in io.Reader, out io.Writer) error) *client.Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = serve(ctx, inR, outW)
		outW.Close()
	}()
	cl := client.NewClient(transport.NewIO(outR, inW, nil))
	if err := cl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cl.Close()
		inW.Close()
		cancel()
		<-done
	})
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := cl.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	return cl
}

// offersNoKept fails when the content store cl reaches (its tools named
// prefix+tool) lists a store, finds the secret or reads the kept result.
func offersNoKept(t *testing.T, who string, cl *client.Client, prefix, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"listStores", map[string]any{}},
		{"search", map[string]any{"query": secretWord}},
		{"readContent", map[string]any{"contentId": id}},
	} {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = prefix+c.tool, c.args
		res, err := cl.CallTool(ctx, req)
		if err != nil {
			t.Fatalf("%s: %s: %v", who, c.tool, err)
		}
		text := res.Content[0].(mcp.TextContent).Text
		if strings.Contains(text, "password is") || c.tool == "listStores" && !strings.Contains(strings.Join(strings.Fields(text), ""), `"stores":[]`) {
			t.Fatalf("%s offers a chat's kept result by %s: %.400s", who, c.tool, text)
		}
	}
}

// TestKeptResultsAreNotServed: a chat's kept result is not among what
// 'switchboard serve' offers its clients (the content store's tools
// through the gateway) nor what 'switchboard builtin content-store'
// offers on the same data dir.
func TestKeptResultsAreNotServed(t *testing.T) {
	lc := newLongChat(t)
	_, id := withSecret(t, lc)

	g := lc.h.Tools.gateway(gateway.Options{Version: "test"})
	g.Refresh(t.Context())
	offersNoKept(t, "switchboard serve", mcpSession(t, g.ServeStdio), "content-store__", id)

	// The standalone built-in, once the app has let go of its stores.
	if err := lc.h.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	cs := Builtins[0]
	standalone := func(ctx context.Context, in io.Reader, out io.Writer) error {
		return cs.ServeStdio(ctx, Stdio{Dir: lc.h.dir, In: in, Out: out, Log: log.New(io.Discard, "", 0)})
	}
	offersNoKept(t, "switchboard builtin content-store", mcpSession(t, standalone), "", id)
}

// TestDeletingAChatDeletesItsKeptResults: Chats.Delete removes the chat's
// kept results with the content store's own DeleteStore, and leaves
// another chat's alone.
func TestDeletingAChatDeletesItsKeptResults(t *testing.T) {
	lc := newLongChat(t)
	tb, _ := withSecret(t, lc)
	lc.llm.Enqueue(
		providertest.Reply{When: "chat A", ToolCalls: []providertest.ToolCall{{Name: "workspace__read_file", Arguments: `{"path":"secret.txt"}`}}},
		providertest.Reply{Text: "Read."},
	)
	sendTurn(t, lc, lc.turn, "chat A: read secret.txt too")
	a, b := filepath.Join(lc.h.dir.Results(), storeOf(lc.turn.ChatID)), filepath.Join(lc.h.dir.Results(), storeOf(tb.ChatID))
	for _, dir := range []string{a, b} {
		if _, err := os.Stat(filepath.Join(dir, "store.json")); err != nil {
			t.Fatalf("no kept results before the delete: %v", err)
		}
	}
	if err := lc.h.Chats.Delete(t.Context(), tb.ChatID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(b); !os.IsNotExist(err) {
		t.Fatalf("chat B's kept results outlived it: %v", err)
	}
	if _, err := os.Stat(filepath.Join(a, "store.json")); err != nil {
		t.Fatalf("chat A's kept results went with chat B: %v", err)
	}
	if _, err := lc.hist.Chat(t.Context(), tb.ChatID); err == nil {
		t.Fatal("chat B is still in the history")
	}
	// A chat that kept nothing deletes as well.
	row, err := lc.hist.CreateChat(t.Context(), history.Chat{Title: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	if err := lc.h.Chats.Delete(t.Context(), row.ID); err != nil {
		t.Fatalf("delete a chat without kept results: %v", err)
	}
}

// TestSharedResultsStoreOfEarlierVersionsIsDeleted: the "Chat results"
// store every chat's results went to before is deleted when the built-ins
// start; a store the user made, even one of that name, stays.
func TestSharedResultsStoreOfEarlierVersionsIsDeleted(t *testing.T) {
	h := open(t)
	s, err := contentstore.Open(contentstore.Options{Root: h.dir.Stores()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(t.Context(), legacyResultsName, legacyResultsDescription, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(t.Context(), "Notes", "", ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	h.Servers.StartBuiltins()
	if _, err := os.Stat(filepath.Join(h.dir.Stores(), "chat-results")); !os.IsNotExist(err) {
		t.Fatalf("the shared results store is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(h.dir.Stores(), "notes", "store.json")); err != nil {
		t.Fatalf("the user's store went too: %v", err)
	}
}
