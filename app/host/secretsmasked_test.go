package host

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// The values envsrv is imported with; both move to the keyring (the
// second is the password of a database URL).
const (
	envToken = "SEKRIT05tok-0123456789"
	envDBPW  = "SEKRIT02pw-abcdef"
)

// TestKeyringSecretsMaskedEverywhere: a server that says its secrets
// wherever a server can (envsrv) reaches every door and every file masked:
// its tool descriptions, instructions, call results and errors, prompts
// and resources, a chat's requests to the model and its history
// (SQLite), pins.json, listings/ and every other file of the data
// directory, and its questions (a sampling request, a form) reach the
// door's handler masked, as do its completions. The pins stay trusted across a restart, and removing the
// server deletes its pins and kept listing.
func TestKeyringSecretsMaskedEverywhere(t *testing.T) {
	h := open(t)
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	srv := config.Server{Name: "envsrv", Transport: config.Stdio, Command: proctest.Server(t, "envsrv"),
		Env: map[string]string{"API_TOKEN": envToken, "DATABASE_URL": "postgres://app:" + envDBPW + "@localhost/db"}}
	if _, err := h.Servers.Save(ctx, ServerEdit{Server: srv, Detect: true}); err != nil {
		t.Fatal(err)
	}
	if disk := onDisk(t, h); strings.Contains(disk, envToken) || strings.Contains(disk, envDBPW) {
		t.Fatalf("the import kept a value in config.json (the test needs both in the keyring):\n%s", disk)
	}
	asked := &keptRequests{}
	h.Servers.HandleRequests(asked) // the window's or the terminal's handler
	if err := h.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	h.mgr.WaitSettled(ctx)

	seen := map[string]any{} // door → what it showed
	seen["a sampling request"], seen["a form"], seen["a completion"] = askEnvsrv(t, h, asked)
	tools, errs := h.Tools.List(ctx)
	seen["Tools.List"], seen["Servers.Status"] = tools, h.Servers.Status()
	if len(errs) != 0 || len(tools) == 0 {
		t.Fatalf("tools %v, errors %v", tools, errs)
	}
	res, err := h.Tools.Call(ctx, "envsrv__env", nil)
	seen["a result"] = res
	_, failErr := h.Tools.Call(ctx, "envsrv__fail", nil)
	big, bigErr := h.Tools.Call(ctx, "envsrv__big", nil)
	prompt, promptErr := h.Tools.Prompt(ctx, "envsrv", "envprompt", nil)
	prompts, _ := h.Tools.Prompts(ctx, "envsrv")
	read, readErr := h.Tools.Read(ctx, "envsrv", "env://leak")
	if err != nil || failErr == nil || bigErr != nil || promptErr != nil || readErr != nil {
		t.Fatalf("env %v, fail %v, big %v, prompt %v, read %v", err, failErr, bigErr, promptErr, readErr)
	}
	seen["the call's error"], seen["a 5 MB result"], seen["a prompt"], seen["prompts"], seen["a resource"] = failErr.Error(), big, prompt, prompts, read
	seen["the model's requests"], seen["history.db"] = chatWithEnvsrv(t, h)
	for door, v := range seen {
		assertMasked(t, door, v)
	}

	h.Close(ctx) // a restart: the masked pins stay trusted
	h2 := Open(Options{Dir: h.dir})
	t.Cleanup(func() { h2.Close(context.WithoutCancel(ctx)) })
	if err := h2.Servers.Load(); err != nil {
		t.Fatal(err)
	}
	h2.mgr.WaitSettled(ctx)
	if _, errs := h2.Tools.List(ctx); len(errs) != 0 {
		t.Fatalf("after a restart: %v; want every tool offered as trusted", errs)
	}
	if changes, err := h2.Pins.Changes(); err != nil || len(changes) != 0 {
		t.Fatalf("after a restart, changes %+v, %v; want none", changes, err)
	}
	assertDataDirMasked(t, h2)

	if err := h2.Servers.RemoveWith("envsrv", true); err != nil {
		t.Fatal(err)
	}
	pinFile, _ := os.ReadFile(h2.dir.Pins())
	kept, _ := filepath.Glob(filepath.Join(h2.dir.Listings(), "envsrv-*"))
	if strings.Contains(string(pinFile), "envsrv") || len(kept) != 0 {
		t.Fatalf("after remove: pins.json\n%s\nlistings %v; want neither to keep envsrv", pinFile, kept)
	}
}

// keptRequests is a door's RequestHandler that keeps what it is asked,
// answers the model's part and declines forms.
type keptRequests struct {
	mu        sync.Mutex
	samplings []mcp.CreateMessageRequest
	forms     []mcp.ElicitationRequest
}

func (k *keptRequests) CreateMessage(_ context.Context, _ string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.samplings = append(k.samplings, req)
	return &mcp.CreateMessageResult{SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("ok")}, Model: "m"}, nil
}

func (k *keptRequests) Elicit(_ context.Context, _ string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.forms = append(k.forms, req)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
}

// askEnvsrv calls envsrv__ask, whose questions reach asked, and completes
// envprompt's argument; it returns the questions as the door got them and
// the suggestions.
func askEnvsrv(t *testing.T, h *Host, asked *keptRequests) (samplings, forms, completions any) {
	t.Helper()
	ctx := t.Context()
	res, err := h.Tools.Call(ctx, "envsrv__ask", nil)
	if err != nil || res.IsError {
		t.Fatalf("envsrv__ask: %v %+v", err, res)
	}
	values, err := h.Tools.Complete(ctx, "envsrv", Completion{Prompt: "envprompt", Argument: "x"})
	if err != nil {
		t.Fatal(err)
	}
	asked.mu.Lock()
	defer asked.mu.Unlock()
	if len(asked.samplings) == 0 || len(asked.forms) == 0 {
		t.Fatalf("the door was asked %d sampling requests and %d forms; want envsrv's", len(asked.samplings), len(asked.forms))
	}
	return asked.samplings, asked.forms, values
}

// chatWithEnvsrv runs one chat turn whose model calls envsrv__env and
// envsrv__fail, and returns the requests the model got and the bytes of
// the chat's history database (and its WAL), closed.
func chatWithEnvsrv(t *testing.T, h *Host) (requests, db string) {
	t.Helper()
	ctx := t.Context()
	hist, err := history.Open(ctx, h.dir.History())
	if err != nil {
		t.Fatal(err)
	}
	row, err := hist.CreateChat(ctx, history.Chat{Title: "envsrv"})
	if err != nil {
		t.Fatal(err)
	}
	llm := providertest.NewServer(t)
	p, err := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "fake", BaseURL: llm.URL(provider.KindOpenAI), APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "envsrv__env", Arguments: `{}`}, {ID: "c2", Name: "envsrv__fail", Arguments: `{}`}}},
		providertest.Reply{Text: "done"})
	if _, err := h.Chats.newEngine(hist, chat.ApproveAll{}).Send(ctx, chat.Turn{ChatID: row.ID, Provider: p, Model: "m", Text: "show me your env"}); err != nil {
		t.Fatal(err)
	}
	if err := hist.Close(); err != nil {
		t.Fatal(err)
	}
	var reqs []string
	for _, r := range llm.Requests() {
		reqs = append(reqs, string(r))
	}
	if len(reqs) < 2 || !strings.Contains(reqs[1], "RESULT-ENV") || !strings.Contains(reqs[1], "ERROR-ENV") {
		t.Fatalf("the model was not sent the result and the error: %s", reqs)
	}
	var files []byte
	for _, suffix := range []string{"", "-wal"} {
		b, _ := os.ReadFile(h.dir.History() + suffix)
		files = append(files, b...)
	}
	return strings.Join(reqs, "\n"), string(files)
}

// assertMasked fails unless v (a string, or any value as JSON) holds
// neither secret and holds a masked one.
func assertMasked(t *testing.T, where string, v any) {
	t.Helper()
	text, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		text = string(b)
	}
	if strings.Contains(text, envToken) || strings.Contains(text, envDBPW) {
		t.Errorf("%s holds a secret: %.2000s", where, text)
	} else if !strings.Contains(text, "••••6789") && !strings.Contains(text, "••••cdef") {
		t.Errorf("%s shows no masked secret: %.2000s", where, text)
	}
}

// assertDataDirMasked fails when any file of the data directory holds a
// secret, and unless pins.json and the kept listing hold a masked one.
func assertDataDirMasked(t *testing.T, h *Host) {
	t.Helper()
	err := filepath.WalkDir(h.dir.String(), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && (bytes.Contains(b, []byte(envToken)) || bytes.Contains(b, []byte(envDBPW))) {
			t.Errorf("%s holds a secret", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pinFile, _ := os.ReadFile(h.dir.Pins())
	assertMasked(t, "pins.json", string(pinFile))
	kept, _ := filepath.Glob(filepath.Join(h.dir.Listings(), "envsrv-*.json"))
	if len(kept) != 1 {
		t.Fatalf("kept listings %v; want envsrv's", kept)
	}
	listing, _ := os.ReadFile(kept[0])
	assertMasked(t, "listings/", string(listing))
}
