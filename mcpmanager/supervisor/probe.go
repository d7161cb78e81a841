package supervisor

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/mcpmanager/apps"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
)

// Steps of a test connection, in order.
const (
	StepFetch      = "fetch"           // the launcher downloaded the package (npx, uvx, docker only)
	StepStart      = "start"           // the process started / the HTTP session opened
	StepInitialize = "initialize"      // the MCP handshake (servers before 2026-07-28)
	StepDiscover   = "server/discover" // its 2026-07-28 counterpart
	StepTools      = "tools/list"
)

// ProbeStep is one timed step of a test connection.
type ProbeStep struct {
	Name  string        `json:"name"`
	Took  time.Duration `json:"took"`
	Error string        `json:"error,omitempty"`
}

// Probe is what a test connection found.
type Probe struct {
	OK         bool               `json:"ok"`
	Steps      []ProbeStep        `json:"steps"`
	Total      time.Duration      `json:"total"`
	Transport  string             `json:"transport"` // stdio, http, sse or in-process
	ServerInfo mcp.Implementation `json:"serverInfo"`
	Protocol   string             `json:"protocolVersion"`
	Tools      []string           `json:"tools"`
	// AppOnly are the tools only an MCP App may call (_meta.ui.visibility
	// without "model"): listed, never offered to a model.
	AppOnly []string `json:"appOnly,omitempty"`
	// Failed names the step that failed ("" when OK); Error says why, with
	// the server's last stderr lines when it wrote any.
	Failed string   `json:"failed,omitempty"`
	Error  string   `json:"error,omitempty"`
	Stderr []string `json:"stderr,omitempty"`
}

// Probe starts the server once, on its own (not the supervised session),
// runs initialize and tools/list, times each step, and stops it again. It
// does not restart or retry, except that a remote server without a "type"
// is tried over Streamable HTTP and then SSE, as Run does. It must not be
// called on a Server that is running.
func (s *Server) Probe(ctx context.Context) Probe {
	var p Probe
	begin := time.Now()
	last := begin
	s.mark = func(step string, err error) {
		now := time.Now()
		ps := ProbeStep{Name: step, Took: now.Sub(last)}
		if err != nil {
			ps.Error = plain.Text(err)
		}
		last = now
		p.Steps = append(p.Steps, ps)
	}
	defer func() { s.mark = nil }()

	types := []string{""}
	p.Transport = "stdio"
	if s.spec.InProcess != nil {
		p.Transport = "in-process"
	} else if r := s.spec.Remote; r != nil {
		types = []string{r.Type}
		if r.Type == "" {
			types = []string{RemoteHTTP, RemoteSSE}
		}
	}
	var errs []error
	if s.spec.Fetch != nil && s.spec.Remote == nil && s.spec.InProcess == nil {
		err := s.fetch(ctx)
		s.mark(StepFetch, err)
		if err != nil {
			errs = append(errs, err)
			types = nil
		}
	}
	for _, typ := range types {
		if typ != "" {
			p.Transport = typ
		}
		p.Steps, last = nil, time.Now()
		sess, cl, res, err := s.open(ctx, typ)
		if err != nil {
			errs = append(errs, err)
			if ctx.Err() != nil || sameOverSSE(err) {
				break
			}
			continue
		}
		errs = nil
		p.ServerInfo, p.Protocol = res.ServerInfo, cmp.Or(cl.ProtocolVersion(), res.ProtocolVersion)
		tctx, cancel := context.WithTimeout(ctx, s.spec.StartTimeout)
		tools, err := cl.ListTools(tctx, mcp.ListToolsRequest{})
		cancel()
		s.mark(StepTools, err)
		if err != nil {
			errs = append(errs, err)
		} else {
			for _, t := range tools.Tools {
				p.Tools = append(p.Tools, t.Name)
				if !apps.ModelVisible(t) {
					p.AppOnly = append(p.AppOnly, t.Name)
				}
			}
		}
		cl.Close()
		sess.close()
		break
	}
	p.Total = last.Sub(begin) // to the end of the last step: stopping the server is not part of it
	s.mu.Lock()
	logged := s.logged
	s.mu.Unlock()
	if logged != nil { // the process is stopped; let its last words land
		select {
		case <-logged:
		case <-time.After(2 * time.Second):
		}
	}
	p.Stderr = s.stderrTail(20)
	if len(errs) == 0 {
		p.OK = true
		return p
	}
	errs = sayPath(s, types, errs, p.Steps)
	// Over HTTP and then SSE the same cause fails both: say it once.
	// The window shows the first line and the rest behind a disclosure.
	var sentences, details []string
	for _, err := range errs {
		s, d := plain.Explain(err)
		if !slices.Contains(sentences, s) {
			sentences = append(sentences, s)
		}
		if d != "" && d != s {
			details = append(details, d)
		}
	}
	p.Error = strings.Join(append(sentences, details...), "\n")
	for _, st := range p.Steps {
		if st.Error != "" {
			p.Failed = st.Name
			break
		}
	}
	if p.Failed == "" { // failed between steps, or before the first
		p.Failed = StepStart
	}
	return p
}
