package history

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
)

// The crash test runs this test binary again as a child that writes to the
// database; these variables tell the child what to do.
const (
	crashEnvDB   = "HISTORY_CRASH_CHILD_DB"
	crashEnvChat = "HISTORY_CRASH_CHILD_CHAT"
	crashAcks    = 150 // acknowledged appends before the kill
)

// TestCrashDurability kills a writer process with SIGKILL while it appends
// and checks that every message it reported as appended is in the database
// afterwards and that the database (and its search index) is intact.
func TestCrashDurability(t *testing.T) {
	if path := os.Getenv(crashEnvDB); path != "" {
		crashChild(t, path, os.Getenv(crashEnvChat))
		return
	}
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	chat, err := s.CreateChat(t.Context(), Chat{Title: "crash"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	cmd, out := proctest.Rerun(t, crashEnvDB+"="+path, crashEnvChat+"="+chat.ID)

	var acked []string
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		id, ok := strings.CutPrefix(sc.Text(), "ack ")
		if !ok {
			continue // the test framework's own output
		}
		acked = append(acked, id)
		if len(acked) == crashAcks && !killed {
			// SIGKILL: no deferred Close, no flush; whatever the child
			// printed before dying was acknowledged and must survive.
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("child ended after %d acks without being killed: %v", len(acked), err)
	}
	if err == nil {
		t.Fatalf("child exited cleanly; want it killed")
	}

	s2 := openAt(t, path)
	var check string
	if err := s2.db.QueryRowContext(t.Context(), "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	if _, err := s2.db.ExecContext(t.Context(), `INSERT INTO search (search) VALUES ('integrity-check')`); err != nil {
		t.Errorf("search index integrity check: %v", err)
	}
	msgs, err := s2.Messages(t.Context(), chat.ID)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]Message{}
	for i, m := range msgs {
		if m.Seq != i+1 {
			t.Errorf("message %d has seq %d", i+1, m.Seq)
		}
		have[m.ID] = m
	}
	for _, id := range acked {
		m, ok := have[id]
		if !ok {
			t.Errorf("acknowledged message %s is missing after the crash", id)
			continue
		}
		if len(m.ToolCalls) != 1 || m.ToolCalls[0].Status != CallDone {
			t.Errorf("acknowledged message %s lost its tool call: %+v", id, m.ToolCalls)
		}
	}
	t.Logf("%d acknowledged, %d stored (at most one more than acknowledged may have committed)", len(acked), len(msgs))
	if len(msgs) > len(acked)+1 {
		t.Errorf("%d messages stored but only %d acknowledged", len(msgs), len(acked))
	}
	// The last acknowledged message is searchable: its note for the index
	// committed with it, and Search indexes what is noted.
	last := have[acked[len(acked)-1]]
	hits, err := s2.Search(t.Context(), last.Text, 5)
	if err != nil || len(hits) == 0 || hits[0].MessageID != last.ID {
		t.Errorf("Search(%q) = %+v, %v; want message %s first", last.Text, hits, err, last.ID)
	}
}

// crashChild appends until killed, printing "ack ID" once each append (and
// its tool call) has returned. A write error ends it with a failure the
// parent sees as a missing kill. Writing to a closed stdout kills it too, so
// it never outlives the parent.
func crashChild(t *testing.T, path, chatID string) {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 * crashAcks { // bounded, in case nobody kills it
		m, err := s.AppendMessage(ctx, Message{ChatID: chatID, Role: RoleAssistant, Status: StatusIncomplete, Text: fmt.Sprintf("crash %dx", i)})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SaveToolCall(ctx, ToolCall{ID: "c", MessageID: m.ID, Tool: "t", Status: CallDone}); err != nil {
			t.Fatal(err)
		}
		m.Status = StatusComplete
		if err := s.UpdateMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("ack %s\n", m.ID)
	}
	_ = s.Close()
}
