package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

func TestTerminalRequests(t *testing.T) {
	schema := map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{
		"name":  map[string]any{"type": "string", "title": "Your name"},
		"age":   map[string]any{"type": "integer", "default": 30},
		"ok":    map[string]any{"type": "boolean"},
		"color": map[string]any{"type": "string", "enum": []any{"red", "blue"}},
	}}
	form := mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Who are you?", RequestedSchema: schema}}
	url := mcp.ElicitationRequest{Params: mcp.ElicitationParams{Mode: mcp.ElicitationModeURL, Message: "Pay", URL: "https://pay.example", ElicitationID: "e1"}}
	cases := []struct {
		name        string
		req         mcp.ElicitationRequest
		yes, tty    bool
		input       string
		action      mcp.ElicitationResponseAction
		content     any
		out         string // substring of what the user saw
		outNotHolds string
	}{
		{name: "--yes accepts with the defaults", req: form, yes: true, action: "accept",
			content: map[string]any{"age": float64(30)}, out: "answered with its defaults (--yes)"},
		{name: "no terminal declines", req: form, action: "decline", out: "stdin is not a terminal (use --yes"},
		{name: "url: shown with its site, declined by default", req: url, yes: true, tty: true, input: "\n", action: "decline",
			out: "forms asks you to open a page: Pay\n  site:    pay.example\n  address: https://pay.example\nOpen it in your browser?"},
		{name: "url: never opened without a terminal", req: url, yes: true, action: "decline", out: "stdin is not a terminal"},
		{name: "url: a look-alike host in its xn-- form, the registered domain named", tty: true, input: "\n", action: "decline",
			req: mcp.ElicitationRequest{Params: mcp.ElicitationParams{Mode: mcp.ElicitationModeURL, Message: "Sign in", URL: "https://login.\u0430pple.com.evil.example/x", ElicitationID: "e3"}},
			out: "  site:    login.xn--pple-43d.com.evil.example (registered domain: evil.example)\n           written as login.\u0430pple.com.evil.example: letters from another alphabet"},
		{name: "url: cancel", req: url, tty: true, input: "c\n", action: "cancel"},
		{name: "url: not a web page", req: mcp.ElicitationRequest{Params: mcp.ElicitationParams{Mode: mcp.ElicitationModeURL, URL: "file:///etc/passwd", ElicitationID: "e2"}},
			tty: true, input: "y\n", action: "decline", out: "only http and https links are opened"},
		{name: "fields asked one by one, required first, bad answers asked again", req: form, tty: true,
			input:  "\n\nBo\n\nteal\nblue\nmaybe\nyes\n",
			action: "accept", content: map[string]any{"name": "Bo", "color": "blue", "ok": true},
			out: "  Your name (string): ", outNotHolds: "Your name (string, optional)"},
		{name: "no declines", req: form, tty: true, input: "n\n", action: "decline"},
		{name: "cancel", req: form, tty: true, input: "c\n", action: "cancel"},
	}
	opened := make(chan string, 16)
	prev := openBrowser
	t.Cleanup(func() { openBrowser = prev })
	openBrowser = func(_ context.Context, u string) error {
		opened <- u
		return nil
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			h := newTerminalRequests(strings.NewReader(c.input), &out, c.yes, c.tty)
			res, err := h.Elicit(t.Context(), "forms", c.req)
			if err != nil {
				t.Fatalf("%v (saw %q)", err, out.String())
			}
			if res.Action != c.action || !reflect.DeepEqual(res.Content, c.content) {
				t.Errorf("answered %s %#v, want %s %#v", res.Action, res.Content, c.action, c.content)
			}
			if !strings.Contains(out.String(), c.out) || c.outNotHolds != "" && strings.Contains(out.String(), c.outNotHolds) {
				t.Errorf("the user saw %q", out.String())
			}
			if len(opened) > 0 {
				t.Errorf("opened %s without a yes", <-opened)
			}
		})
	}
	t.Run("required field left empty is asked again", func(t *testing.T) {
		var out bytes.Buffer
		h := newTerminalRequests(strings.NewReader("y\n\nAl\n\n\n\n"), &out, false, true)
		res, err := h.Elicit(t.Context(), "forms", form)
		if err != nil || res.Content.(map[string]any)["name"] != "Al" || !strings.Contains(out.String(), "this field is required") {
			t.Errorf("%+v %v, saw %q", res, err, out.String())
		}
	})
	t.Run("url: yes opens the page, and only then", func(t *testing.T) {
		var out bytes.Buffer
		res, err := newTerminalRequests(strings.NewReader("y\n"), &out, false, true).Elicit(t.Context(), "forms", url)
		if err != nil || res.Action != "accept" || len(opened) != 1 || <-opened != "https://pay.example" {
			t.Errorf("%+v %v, saw %q", res, err, out.String())
		}
	})
	t.Run("url of a waiting tool call: Enter is Done, the server's completion ends the wait", func(t *testing.T) {
		retry := url
		retry.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{router.RetryMeta: true}}
		var out bytes.Buffer
		res, err := newTerminalRequests(strings.NewReader("y\n\n"), &out, false, true).Elicit(t.Context(), "forms", retry)
		if err != nil || res.Action != "accept" || !strings.Contains(out.String(), "Press Enter when you have finished there") || len(opened) != 1 {
			t.Errorf("%+v %v, saw %q", res, err, out.String())
		}
		<-opened
		r, w := io.Pipe()
		t.Cleanup(func() { w.Close() })
		go func() { _, _ = w.Write([]byte("y\n")) }() // yes, then nothing: the server completes
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			_, err := newTerminalRequests(r, io.Discard, false, true).Elicit(ctx, "forms", retry)
			done <- err
		}()
		<-opened // it waits for Enter now
		cancel() // what the router does on notifications/elicitation/complete
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want the wait ended by ctx", err)
		}
	})
	t.Run("sampling is declined with a clear message", func(t *testing.T) {
		var out bytes.Buffer
		_, err := newTerminalRequests(strings.NewReader(""), &out, true, true).CreateMessage(t.Context(), "sampler", mcp.CreateMessageRequest{})
		if !errors.Is(err, ErrNoSampling) || !strings.Contains(out.String(), "sampler asked to use a model (sampling); declined") {
			t.Errorf("%v, saw %q", err, out.String())
		}
		out.Reset()
		// Under serve it is the connected app that did not take it.
		if _, err := servedRequests(strings.NewReader(""), &out).CreateMessage(t.Context(), "sampler", mcp.CreateMessageRequest{}); !errors.Is(err, ErrServedNoSampling) || !strings.Contains(out.String(), "connected to 'switchboard serve'") {
			t.Errorf("serve: %v, saw %q", err, out.String())
		}
	})
	t.Run("a cancelled request stops waiting for the user", func(t *testing.T) {
		r, w := io.Pipe() // nobody types
		t.Cleanup(func() { w.Close() })
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := newTerminalRequests(r, io.Discard, false, true).Elicit(ctx, "forms", form); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

// TestClosedStdinDeclines: an answer read from a stdin that closed is a
// no, said as such; a 20 MB argument is shown as its head and tail, and
// the question says how much of it is not shown.
func TestClosedStdinDeclines(t *testing.T) {
	var out strings.Builder
	term := &terminalRequests{in: bufio.NewReader(strings.NewReader("")), out: &out, interactive: true}
	big := `{"text":"` + strings.Repeat("x", 20<<20) + `; touch PWNED"}`
	d, err := term.Approve(t.Context(), chat.ApprovalRequest{Tool: "fs__write", Arguments: json.RawMessage(big)})
	if d != chat.Deny || err == nil || !strings.Contains(err.Error(), "declined: stdin is not a terminal") {
		t.Fatalf("Approve on a closed stdin = %v, %v", d, err)
	}
	if n := out.Len(); n > MaxShownArgs+300 || !strings.Contains(out.String(), `; touch PWNED"}`) || !strings.Contains(out.String(), "(of 20.0 MB in all) are not shown here; allowing it allows them too.\nAllow?") {
		t.Fatalf("the question showed %d bytes of a 20 MB argument: %.300s … %s", n, out.String(), out.String()[max(0, n-300):])
	}
}

// TestApproveShowsArguments: the terminal's question writes the arguments
// out as serve's and the window's do: a padded tail in sight, invisible
// and reordering characters as their codes (not dropped, which would show
// ec\u200bho as echo), terminal controls harmless.
func TestApproveShowsArguments(t *testing.T) {
	cases := []struct {
		name, args, want string
		specialist       string
	}{
		{name: "a specialist's call", args: `{"command":"ls"}`, specialist: "workspace", want: `(the workspace specialist) run workspace__execute_shell {"command":"ls"}`},
		{"padding", `{"command":"echo harmless` + strings.Repeat(" ", 600) + `; touch PWNED"}`, `run workspace__execute_shell {"command":"echo harmless[600 spaces]; touch PWNED"}` + "\nAllow? ", ""},
		{"isolates", "{\"command\":\"ls \u2067;touch PWNED_T3\u2069 # list files\"}", `{"command":"ls \u2067;touch PWNED_T3\u2069 # list files"}`, ""},
		{"override", "{\"command\":\"echo safe # \u202e; touch PWNED_BIDI \u202c done\"}", `# \u202E; touch PWNED_BIDI \u202C done`, ""},
		{"zero-width", "{\"command\":\"ec\u200bho hi\"}", `ec\u200Bho hi`, ""},
		{"controls", "{\"command\":\"a\rb\x1b]0;title\x07c\"}", `a\rb\u001B]0;title\u0007c`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			term := &terminalRequests{in: bufio.NewReader(strings.NewReader("n\n")), out: &out, interactive: true}
			if d, err := term.Approve(t.Context(), chat.ApprovalRequest{Tool: "workspace__execute_shell", Arguments: json.RawMessage(c.args), Specialist: c.specialist}); d != chat.Deny || err != nil {
				t.Fatalf("Approve answered n = %v, %v", d, err)
			}
			if !strings.Contains(out.String(), c.want) {
				t.Errorf("the question = %q\nwant it to hold %q", out.String(), c.want)
			}
			if strings.Contains(out.String(), "not shown") {
				t.Errorf("the question left part of short arguments out: %q", out.String())
			}
		})
	}
}
