package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/host"
)

// ErrNoSampling is the answer to a server's sampling request on the CLI;
// ErrServedNoSampling under 'serve', to a request its client did not take.
var (
	ErrNoSampling       = errors.New("the command line has no model to lend to servers (sampling): use 'switchboard chat' or the app")
	ErrServedNoSampling = errors.New("the app connected to 'switchboard serve' does not lend its model to servers (sampling), and serve has none of its own: use this server in Switchboard's window or with 'switchboard chat'")
)

// terminalRequests answers what servers ask the user, for CLI commands
// without a model (tools call, tools list): sampling is declined; an
// elicitation form is accepted with its defaults under --yes, asked field by
// field on an interactive terminal, and declined otherwise. Schema defaults
// for fields left empty are filled in by the manager (SEP-1034). Safe for
// concurrent use: one question at a time.
type terminalRequests struct {
	in          *bufio.Reader
	out         io.Writer // prompts and notes: stderr, so stdout stays the command's output
	yes         bool
	interactive bool // in is a terminal the user types into
	noSampling  error
	mu          sync.Mutex
}

// newTerminalRequests is the CLI's host.RequestHandler. interactive
// says whether in is a terminal (not a pipe or the MCP stdio of 'serve').
func newTerminalRequests(in io.Reader, out io.Writer, yes, interactive bool) host.RequestHandler {
	return &terminalRequests{in: bufio.NewReader(in), out: out, yes: yes, interactive: interactive, noSampling: ErrNoSampling}
}

// servedRequests is serve's fallback for what its client does not take:
// newTerminalRequests on no terminal, saying why sampling is declined.
func servedRequests(in io.Reader, out io.Writer) host.RequestHandler {
	t := newTerminalRequests(in, out, false, false).(*terminalRequests)
	t.noSampling = ErrServedNoSampling
	return t
}

// CreateMessage declines: the CLI has no model outside 'switchboard chat'.
func (t *terminalRequests) CreateMessage(_ context.Context, server string, _ mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	fmt.Fprintf(t.out, "switchboard: %s asked to use a model (sampling); declined: %v\n", server, t.noSampling)
	return nil, t.noSampling
}

// Elicit answers a form, or a URL to open (see openURL).
func (t *terminalRequests) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	answer := func(a mcp.ElicitationResponseAction, content any) *mcp.ElicitationResult {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: a, Content: content}}
	}
	switch {
	case req.Params.Mode == mcp.ElicitationModeURL:
		return t.openURL(ctx, server, req.Params)
	case t.yes:
		fmt.Fprintf(t.out, "switchboard: %s asks: %s — answered with its defaults (--yes)\n", server, termSafe(req.Params.Message))
		return answer(mcp.ElicitationResponseActionAccept, host.FormDefaults(req.Params.RequestedSchema)), nil
	case !t.interactive:
		fmt.Fprintf(t.out, "switchboard: %s asks: %s — declined: stdin is not a terminal (use --yes to answer with the defaults)\n", server, termSafe(req.Params.Message))
		return answer(mcp.ElicitationResponseActionDecline, nil), nil
	}

	fmt.Fprintf(t.out, "%s asks: %s\n", server, termSafe(req.Params.Message))
	f, err := parseForm(req.Params.RequestedSchema)
	if err != nil {
		// Declined, not failed: the server hears the user gave no answer
		// and may ask otherwise, where an error would fail its tool call.
		fmt.Fprintf(t.out, "switchboard: declined: %s's form cannot be answered here: %s\n", server, termSafe(err.Error()))
		return answer(mcp.ElicitationResponseActionDecline, nil), nil
	}
	s, err := t.line(ctx, "Answer? [Y]es / [n]o (decline) / [c]ancel: ")
	if err != nil {
		return t.unanswered(err)
	}
	switch strings.ToLower(s) {
	case "n", "no":
		return answer(mcp.ElicitationResponseActionDecline, nil), nil
	case "c", "cancel":
		return answer(mcp.ElicitationResponseActionCancel, nil), nil
	}
	content := map[string]any{}
	for _, fld := range f {
		v, ok, err := t.ask(ctx, fld)
		if err != nil {
			return t.unanswered(err)
		}
		if ok {
			content[fld.Name] = v
		}
	}
	return answer(mcp.ElicitationResponseActionAccept, content), nil
}

// ask reads one field until its answer fits the field's schema; ok is
// false for a field left empty (its default, if any, is filled in for an
// accepted form).
func (t *terminalRequests) ask(ctx context.Context, fld field) (v any, ok bool, err error) {
	for {
		s, err := t.line(ctx, fld.prompt())
		if err != nil {
			return nil, false, err
		}
		if s == "" {
			if fld.Required && fld.Default == nil {
				fmt.Fprintln(t.out, "  this field is required")
				continue
			}
			return nil, false, nil
		}
		v, err := fld.parse(s)
		if err != nil {
			fmt.Fprintf(t.out, "  %s\n", termSafe(err.Error()))
			continue
		}
		return v, true, nil
	}
}

// unanswered is a form's answer when reading the terminal failed: a stdin
// that closed before the user answered declines, as no terminal does (the
// server hears no, not an internal error); another failure (ctx ended) is
// returned.
func (t *terminalRequests) unanswered(err error) (*mcp.ElicitationResult, error) {
	if !errors.Is(err, errStdinClosed) {
		return nil, err
	}
	fmt.Fprintf(t.out, "\nswitchboard: %v\n", err)
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
}

// openBrowser opens a URL in the user's browser; a variable for tests.
var openBrowser = host.OpenBrowser

// openURL answers a URL-mode elicitation: it prints the server's reason,
// the site and the full address, asks, and opens the page in the browser
// only on yes (never under --yes, never without a terminal). For a tool
// call that waits on the page (-32042) it then waits for Enter; the
// server's completion ends the wait by itself (ctx).
func (t *terminalRequests) openURL(ctx context.Context, server string, p mcp.ElicitationParams) (*mcp.ElicitationResult, error) {
	answer := func(a mcp.ElicitationResponseAction) *mcp.ElicitationResult {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: a}}
	}
	u, err := host.CheckURL(p.URL)
	if err != nil {
		fmt.Fprintf(t.out, "switchboard: %s asked to open %s; declined: %v\n", server, termSafe(p.URL), err)
		return answer(mcp.ElicitationResponseActionDecline), nil
	}
	site := host.SiteOf(u)
	shown := site.Host
	if site.Registrable != site.Host {
		shown += " (registered domain: " + site.Registrable + ")"
	}
	if site.Written != "" {
		shown += "\n           written as " + termSafe(site.Written) + ": letters from another alphabet, which can look like a name you know"
	}
	fmt.Fprintf(t.out, "%s asks you to open a page: %s\n  site:    %s\n  address: %s\n", server, termSafe(p.Message), shown, termSafe(p.URL))
	if !t.interactive {
		fmt.Fprintln(t.out, "switchboard: declined: stdin is not a terminal (pages are only opened when you say yes)")
		return answer(mcp.ElicitationResponseActionDecline), nil
	}
	s, err := t.line(ctx, "Open it in your browser? [y]es / [N]o / [c]ancel: ")
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(s) {
	case "y", "yes":
	case "c", "cancel":
		return answer(mcp.ElicitationResponseActionCancel), nil
	default:
		return answer(mcp.ElicitationResponseActionDecline), nil
	}
	if err := openBrowser(ctx, u.String()); err != nil {
		fmt.Fprintf(t.out, "switchboard: could not open the browser (%v); open the address above yourself\n", err)
	}
	if retry, _ := metaBool(p.Meta, host.RetryMeta); retry {
		if _, err := t.line(ctx, "Press Enter when you have finished there (or wait for "+server+" to confirm): "); err != nil {
			return nil, err
		}
	}
	return answer(mcp.ElicitationResponseActionAccept), nil
}

func metaBool(m *mcp.Meta, key string) (bool, bool) {
	if m == nil {
		return false, false
	}
	b, ok := m.AdditionalFields[key].(bool)
	return b, ok
}

// line asks prompt and reads one line; ctx ending abandons the read. The
// prompt may hold a server's or model's text (field labels, tool arguments).
func (t *terminalRequests) line(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(t.out, termSafe(prompt))
	type read struct {
		s   string
		err error
	}
	ch := make(chan read, 1)
	go func() { // a blocked terminal read cannot be cancelled; ctx only stops waiting for it
		s, err := t.in.ReadString('\n')
		ch <- read{strings.TrimSpace(s), err}
	}()
	select {
	case r := <-ch:
		if r.s == "" && errors.Is(r.err, io.EOF) {
			return "", errStdinClosed
		}
		if r.err != nil && !errors.Is(r.err, io.EOF) {
			return "", fmt.Errorf("read the answer: %w", r.err)
		}
		return r.s, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// errStdinClosed is the answer read from a stdin that closed: nobody is
// there to say yes.
var errStdinClosed = errors.New("declined: stdin is not a terminal (it closed before an answer)")

// MaxShownArgs bounds the arguments shown on a tool-call line or in a
// question: a 20 MB argument is shown as its head and its tail, with the
// middle counted.
var MaxShownArgs = 2000

// excerpt is s as a person reads it before deciding (host.Show): invisible
// and reordering characters written out, long blank runs counted, and
// about max characters of it, its tail always among them.
func excerpt(s string, max int) string { return host.Show(s, max).Text }
