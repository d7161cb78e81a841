// Command client is the client under test of the MCP conformance suite
// (@modelcontextprotocol/conformance): it reaches the URL it is given the way
// the app does, through mcpmanager (supervisor, Streamable HTTP with SSE
// fallback and stream resumption, OAuth login), and does what the scenario in
// MCP_CONFORMANCE_SCENARIO asks. Test-only; see ../run.sh.
//
//	MCP_CONFORMANCE_SCENARIO=tools_call client http://localhost:3000/mcp
//
// It behaves like a user of the app: a server that needs login is logged in
// to (Manager.Login, what the Log in button runs), its "browser" following
// the authorization server's redirect over HTTP; elicitations are answered
// like 'switchboard --yes' does (accept, schema defaults).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/oauth"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// clientMetadataURL is the client ID metadata document URL the suite expects
// (auth/basic-cimd); the suite's authorization server does not fetch it.
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// server is the configured name of the server under test.
const server = "conformance"

// maxLogins bounds logins per run: a server that keeps asking is refused
// rather than looped on (auth/scope-retry-limit).
const maxLogins = 3

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: MCP_CONFORMANCE_SCENARIO=NAME client URL")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 25*time.Second) // the suite gives up after 30 s
	defer cancel()
	if err := run(ctx, os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Args[len(os.Args)-1]); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, scenario, url string) error {
	oauth.OpenBrowser = followRedirect
	remote := &supervisor.Remote{URL: url}
	// auth/pre-registration hands over a client registered out of band, as
	// a user's "oauth": {"clientId", "clientSecret"} entry would; the
	// http-*-headers scenarios the tool calls to make.
	var sc struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		ToolCalls    []struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		} `json:"toolCalls"`
	}
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &sc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
		remote.OAuth = oauth.Settings{ClientID: sc.ClientID, ClientSecret: sc.ClientSecret}
	}
	m := mcpmanager.New(mcpmanager.Options{ClientMetadataURL: clientMetadataURL})
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = m.Close(cctx)
	}()
	m.SetRequestHandler(yes{})
	m.Apply([]mcpmanager.ServerConfig{{Name: server, Remote: remote, Restart: supervisor.Restart{Disabled: true}}})
	c := &session{m: m}

	tools, err := c.tools(ctx)
	if err != nil {
		return err
	}
	if len(sc.ToolCalls) > 0 {
		for _, tc := range sc.ToolCalls {
			if err := c.call(ctx, tc.Name, tc.Arguments); err != nil {
				return err
			}
		}
		return nil
	}
	switch scenario {
	case "initialize", "request-metadata", "json-schema-ref-no-deref":
		return nil
	case "http-invalid-tool-headers":
		// The malformed tools are left out; the valid one still works.
		return c.call(ctx, "valid_tool", map[string]any{"region": "us-west1"})
	case "json-schema-2020-12-preservation":
		// Echo the schema as the router keeps it: any keyword dropped or
		// $ref resolved on the way shows in the suite's diff.
		for _, t := range tools {
			if t.Tool.Name == "json_schema_2020_12_tool" {
				schema, err := t.Schema()
				if err != nil {
					return err
				}
				return c.call(ctx, "json_schema_echo", map[string]any{"schema": json.RawMessage(schema)})
			}
		}
		return errors.New("json_schema_2020_12_tool is not listed")
	case "sep-2322-client-request-state":
		// Two multi round-trip calls with an unrelated one in between: each
		// keeps its own requestState and answers.
		errs := make(chan error, 2)
		go func() { errs <- c.call(ctx, "test_mrtr_echo_state", nil) }()
		go func() { errs <- c.call(ctx, "test_mrtr_unrelated", nil) }()
		if err := errors.Join(<-errs, <-errs); err != nil {
			return err
		}
		if err := c.call(ctx, "test_mrtr_no_state", nil); err != nil {
			return err
		}
		return c.call(ctx, "test_mrtr_no_result_type", nil)
	case "sep-2640-client-no-prefetch":
		// What the app does on connect: the skills are listed (for the
		// model's load_skill), and no file is read until a model loads one.
		_, err := c.m.Skills().All(ctx)
		return errors.Join(err...)
	case "sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter":
		return c.loadSkills(ctx)
	case "tools_call":
		return c.call(ctx, "add_numbers", map[string]any{"a": 2, "b": 3})
	case "elicitation-sep1034-client-defaults":
		return c.call(ctx, "test_client_elicitation_defaults", nil)
	case "sse-retry":
		return c.call(ctx, "test_reconnection", nil)
	default: // auth/*: the protected server's one tool
		return c.call(ctx, "test-tool", nil)
	}
}

// session runs requests, logging in when the server asks for it.
type session struct {
	m      *mcpmanager.Manager
	logins int
}

// ready waits until the server is ready, logging in when it needs it.
func (s *session) ready(ctx context.Context) error {
	for {
		s.m.WaitSettled(ctx)
		st := s.status()
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case st.State == supervisor.Ready:
			return nil
		case st.State != supervisor.NeedsLogin:
			return fmt.Errorf("server is %s: %s", st.State, st.Error)
		}
		if err := s.login(ctx, st.Error); err != nil {
			return err
		}
	}
}

// login logs in (what the Log in button runs), at most maxLogins times.
func (s *session) login(ctx context.Context, why string) error {
	if s.logins >= maxLogins {
		return fmt.Errorf("gave up after %d logins: %s", s.logins, why)
	}
	s.logins++
	return s.m.Login(ctx, server)
}

// retry runs fn, and again after a login when fn failed because the server
// asked for one (a 401 on a later request, a step-up 403).
func (s *session) retry(ctx context.Context, fn func() error) error {
	for {
		if err := s.ready(ctx); err != nil {
			return err
		}
		err := fn()
		if err == nil || !errors.Is(err, oauth.ErrNeedsLogin) {
			return err
		}
		if err := s.login(ctx, err.Error()); err != nil {
			return err
		}
	}
}

func (s *session) tools(ctx context.Context) ([]router.Tool, error) {
	var tools []router.Tool
	err := s.retry(ctx, func() error {
		// ServerTools says why it failed (a login, say); Tools keeps each
		// schema as the server sent it.
		if _, err := s.m.Router().ServerTools(ctx, server); err != nil {
			return err
		}
		tools, _ = s.m.Router().Tools(ctx)
		return nil
	})
	return tools, err
}

func (s *session) call(ctx context.Context, tool string, args map[string]any) error {
	return s.retry(ctx, func() error {
		res, err := s.m.Router().Call(ctx, server, tool, args, router.CallOptions{})
		if err != nil {
			return err
		}
		if res.IsError {
			return fmt.Errorf("%s returned a tool error: %+v", tool, res.Content)
		}
		return nil
	})
}

// loadSkills loads every skill the server lists, as a model's load_skill
// does (its SKILL.md, verified), then reads each of its other files the
// same way: a skill that fails verification is not used, so none of its
// files is read after it.
func (s *session) loadSkills(ctx context.Context) error {
	cat := s.m.Skills()
	l, err := cat.List(ctx, server)
	if err != nil {
		return err
	}
	var errs []error
	for _, sk := range l.Skills {
		if _, err := cat.Load(ctx, sk); err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range sk.Files {
			if f.URI == sk.URI {
				continue
			}
			if _, err := cat.Read(ctx, sk, f.URI); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

func (s *session) status() supervisor.Status {
	for _, st := range s.m.Status() {
		if st.Name == server {
			return st
		}
	}
	return supervisor.Status{}
}

// followRedirect stands in for the user's browser: it asks the
// authorization endpoint (which approves at once in the suite) and follows
// its redirect to the app's loopback listener.
func followRedirect(ctx context.Context, authURL string) error {
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(u string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		return noFollow.Do(req)
	}
	resp, err := get(authURL)
	if err != nil {
		return err
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if loc == "" {
		return fmt.Errorf("the authorization endpoint answered HTTP %d without a redirect", resp.StatusCode)
	}
	resp, err = get(loc)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// yes answers like the CLI's --yes: elicitations accepted with the schema's
// defaults (filled in by the supervisor), sampling declined.
type yes struct{}

func (yes) CreateMessage(context.Context, string, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return nil, errors.New("sampling is not offered by the conformance client")
}

func (yes) Elicit(context.Context, string, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{}}}, nil
}
