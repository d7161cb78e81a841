package oauth_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
)

// A 403 insufficient_scope refuses one request: with OnStepUp set it is
// reported there, not as a lost login; the scopes it asked for are kept
// with the stored login, so a login in another process (the CLI) asks for
// them; and the first process then uses that login's token.
func TestStepUpAcrossProcesses(t *testing.T) {
	f := newFake(t)
	f.set(func(f *fake) { f.wwwAuth += `, scope="read"` })
	browser(t)
	store := oauth.NewMemoryStore()
	window, err := login(t, f, oauth.Config{}, store)
	if err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) { f.need = []string{"read", "write"} })
	var stepUp, lost error
	tr := &oauth.Transport{Auth: window, OnNeedsLogin: func(err error) { lost = err }, OnStepUp: func(err error) { stepUp = err }}
	_, err = f.call(t, tr, `{}`)
	if !errors.Is(err, oauth.ErrStepUp) || !errors.Is(err, oauth.ErrNeedsLogin) || !errors.Is(stepUp, oauth.ErrStepUp) || lost != nil {
		t.Fatalf("403: err %v, step-up reported %v, login lost %v", err, stepUp, lost)
	}
	if !strings.Contains(err.Error(), `asks for more permissions than the login granted (scope "read write")`) {
		t.Errorf("err = %v", err)
	}
	if rec := stored(t, store); rec["step_up"] != "read write" {
		t.Errorf("stored step_up %v, want the 403's scopes", rec["step_up"])
	}

	// The CLI logs in: it never saw the 403, yet asks for its scopes.
	cli := oauth.New(oauth.Config{Server: "srv", URL: f.URL + "/mcp"}, store)
	if err := cli.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	f.set(func(f *fake) {
		if got := f.authorizeQ[len(f.authorizeQ)-1].Get("scope"); got != "read write" {
			t.Errorf("the CLI's login asked for %q, want the held and the 403's scopes", got)
		}
	})
	if rec := stored(t, store); rec["step_up"] != nil {
		t.Errorf("step_up %v kept after the login that granted it", rec["step_up"])
	}
	// The window's next request is refused with its old token, and sent
	// again with the CLI's.
	stepUp = nil
	if resp, err := f.call(t, tr, `{}`); err != nil || resp.StatusCode != http.StatusOK || stepUp != nil {
		t.Fatalf("the window after the CLI's login: %v %v (step-up %v)", resp, err, stepUp)
	}
}
