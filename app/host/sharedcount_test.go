package host

import (
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/gateway"
)

// TestSharedCountsLiveWithSessions: a routed call is counted on the
// attached session of its app; an unnamed session takes the name of the
// first call naming an app no session has; a call of no attached app is
// not kept, so memory holds no more counts than sessions attached.
func TestSharedCountsLiveWithSessions(t *testing.T) {
	cursor, unnamed := &attachedApp{}, &attachedApp{}
	cursor.name.Store("cursor")
	unnamed.name.Store("")
	s := &Shared{attached: map[*attachedApp]bool{cursor: true, unnamed: true}}
	for _, app := range []string{"cursor", "cursor", "zed", "zed", "someone-gone"} {
		s.counted(gateway.Call{App: app, Server: "notes", Tool: "echo"})
	}
	if got := cursor.calls.Load(); got != 2 {
		t.Errorf("cursor's session counted %d calls, want 2", got)
	}
	if unnamed.app() != "zed" || unnamed.calls.Load() != 2 {
		t.Errorf("the unnamed session is %q with %d calls, want zed with 2", unnamed.app(), unnamed.calls.Load())
	}
}

// TestSharedSees: an app with a choice sees its chosen servers and the
// built-ins; one without a choice, or unknown, sees everything.
func TestSharedSees(t *testing.T) {
	s := &Shared{}
	s.chosen.Store(&map[string][]string{"cursor": {"notes"}, "zed": nil})
	for _, c := range []struct {
		app, server string
		want        bool
	}{
		{"cursor", "notes", true},
		{"cursor", "mail", false},
		{"cursor", Builtins[0].Name(), true},
		{"zed", "mail", true},
		{"someone", "mail", true},
	} {
		if got := s.sees(c.app, c.server); got != c.want {
			t.Errorf("sees(%s, %s) = %v, want %v", c.app, c.server, got, c.want)
		}
	}
}
