package mcpmanager

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// envSecret is the value envsrv is started with.
const envSecret = "SEKRIT05tok-0123456789"

// maskEnvSecret is a router.Redactor that knows envSecret.
type maskEnvSecret struct{}

func (maskEnvSecret) Redact(s string) string {
	return strings.ReplaceAll(s, envSecret, "••••6789")
}
func (maskEnvSecret) InJSON(raw []byte) bool { return bytes.Contains(raw, []byte(envSecret)) }
func (maskEnvSecret) Empty() bool            { return false }

// TestSecretsMaskedInStatusAndKeptListing: what envsrv says of its
// secret reaches the status (its instructions), the kept listing and the
// log masked; a listing kept before masking is masked when recalled and
// written again masked; ForgetListing deletes it.
func TestSecretsMaskedInStatusAndKeptListing(t *testing.T) {
	dir, logs := t.TempDir(), t.TempDir()
	specs := Specs([]config.Server{{Name: "envsrv", Command: proctest.Server(t, "envsrv"), Env: map[string]string{"API_TOKEN": envSecret}}},
		func(v string) (string, error) { return v, nil })
	// Kept by a version that did not mask: the secret in a description.
	newListing(dir, specs[0], nil).remember([]mcp.Tool{mcp.NewTool("env", mcp.WithDescription("old DESC-ENV: API_TOKEN="+envSecret))})
	var mu sync.Mutex
	var pushed []supervisor.Status
	m := New(Options{ListingsDir: dir, LogDir: logs, Redact: maskEnvSecret{}, OnStatus: func(st supervisor.Status) {
		mu.Lock()
		pushed = append(pushed, st)
		mu.Unlock()
	}})
	t.Cleanup(func() { _ = m.Close(context.WithoutCancel(t.Context())) })
	hold := make(chan struct{})
	m.HoldRecalled(hold)
	m.Apply(specs)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	recalled, _ := m.Router().Tools(ctx)
	close(hold)
	m.WaitSettled(ctx)
	listed, errs := m.Router().Tools(ctx)
	if st := statusOf(m, "envsrv"); st.State != supervisor.Ready || len(listed) == 0 || len(errs) != 0 {
		t.Fatalf("envsrv: %+v, tools %v, %v", st, listed, errs)
	}
	kept, err := os.ReadFile(listingPath(dir, "envsrv"))
	if err != nil {
		t.Fatal(err)
	}
	logFile, _ := os.ReadFile(filepath.Join(logs, logName("envsrv")))
	mu.Lock()
	seen := map[string]any{"recalled": recalled, "listed": listed, "Status": m.Status(), "OnStatus": pushed,
		"kept listing": string(kept), "log": string(logFile)}
	mu.Unlock()
	for where, v := range seen {
		text := jsonText(t, v)
		if strings.Contains(text, envSecret) || !strings.Contains(text, "••••6789") {
			t.Errorf("%s: %s; want the secret masked", where, text)
		}
	}
	if !strings.Contains(string(kept), "DESC-ENV") || strings.Contains(string(kept), "old DESC-ENV") {
		t.Errorf("the kept listing was not written again from the server's: %s", kept)
	}

	if err := ForgetListing(dir, "envsrv"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(listingPath(dir, "envsrv")); !os.IsNotExist(err) {
		t.Fatalf("the listing is still kept after ForgetListing: %v", err)
	}
	if err := ForgetListing(dir, "envsrv"); err != nil {
		t.Fatalf("forgetting a listing that is not kept: %v", err)
	}
}

// jsonText is v as a person reads it: a string as it is, else its JSON.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
