package mcpmanager

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

func TestTestConnection(t *testing.T) {
	m := New(Options{})
	t.Cleanup(func() { m.Close(t.Context()) })
	steps := func(p supervisor.Probe) []string {
		var out []string
		for _, s := range p.Steps {
			out = append(out, s.Name)
		}
		return out
	}
	want := []string{supervisor.StepStart, supervisor.StepInitialize, supervisor.StepTools}

	t.Run("real server", func(t *testing.T) {
		p := m.Test(t.Context(), ServerConfig{Name: "everything", Command: proctest.NPM(t, "mcp-server-everything")})
		if !p.OK || p.Failed != "" || !slices.Equal(steps(p), want) {
			t.Fatalf("probe %+v", p)
		}
		if !slices.Contains(p.Tools, "echo") || p.ServerInfo.Name == "" || p.Protocol == "" || p.Transport != "stdio" {
			t.Fatalf("probe found %+v", p)
		}
		var sum time.Duration
		for _, s := range p.Steps {
			if s.Took <= 0 {
				t.Errorf("step %s took %v", s.Name, s.Took)
			}
			sum += s.Took
		}
		if sum > p.Total {
			t.Errorf("steps %v add up to more than the total %v", sum, p.Total)
		}
		// The test ran the server alone: nothing is left registered or running.
		if len(m.Status()) != 0 {
			t.Fatalf("the test left servers behind: %+v", m.Status())
		}
	})

	tests := []struct {
		name   string
		cfg    ServerConfig
		failed string
		says   string
	}{
		{"missing command", ServerConfig{Name: "nope", Command: "/no/such/server"}, supervisor.StepStart, "not found"},
		{"exits during initialize", ServerConfig{Name: "exit", Command: faultServer, Args: []string{"-mode", "exit-init"}}, supervisor.StepInitialize, "exited"},
		{"hangs in initialize", ServerConfig{Name: "hang", Command: faultServer, Args: []string{"-mode", "hang-init"}, StartTimeout: 300 * time.Millisecond}, supervisor.StepInitialize, "did not finish the MCP handshake"},
		{"cannot run", ServerConfig{Name: "ws", StartError: "ws: websocket servers are not supported"}, supervisor.StepStart, "not supported"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := m.Test(t.Context(), tc.cfg)
			if p.OK || p.Failed != tc.failed || !strings.Contains(p.Error, tc.says) {
				t.Fatalf("probe: ok=%v failed=%q error=%q, want failed %q saying %q", p.OK, p.Failed, p.Error, tc.failed, tc.says)
			}
			if tc.name == "exits during initialize" && !slices.Contains(p.Stderr, "fatal: missing API key FAULT_KEY") {
				t.Fatalf("the server's last words are not in the report: %q", p.Stderr)
			}
		})
	}
}

func TestReportRedactsAndConvertsToMilliseconds(t *testing.T) {
	p := supervisor.Probe{Failed: "initialize", Error: "bad key sk-1", Total: 1500 * time.Microsecond, Stderr: []string{"using sk-1"},
		Steps: []supervisor.ProbeStep{{Name: "start", Took: time.Millisecond}, {Name: "initialize", Took: 500 * time.Microsecond, Error: "refused sk-1"}}}
	r := Report("x", p, func(s string) string { return strings.ReplaceAll(s, "sk-1", "••••") })
	if r.Error != "bad key ••••" || r.Steps[1].Error != "refused ••••" || r.Stderr[0] != "using ••••" {
		t.Fatalf("not redacted: %+v", r)
	}
	if r.TotalMs != 1.5 || r.Steps[0].Ms != 1 || r.Steps[1].Ms != 0.5 || r.Tools == nil {
		t.Fatalf("report %+v", r)
	}
}
