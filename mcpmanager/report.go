package mcpmanager

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-app/switchboard/mcpmanager/supervisor"
)

// TestReport is a test connection (Manager.Test) as the app's Servers page
// and `switchboard servers test --json` show it: times in milliseconds,
// every text passed through a redactor.
type TestReport struct {
	Server     string       `json:"server"`
	OK         bool         `json:"ok"`
	Steps      []ReportStep `json:"steps"`
	TotalMs    float64      `json:"totalMs"`
	Transport  string       `json:"transport"`
	ServerName string       `json:"serverName"`
	Version    string       `json:"version"`
	Protocol   string       `json:"protocol"`
	Tools      []string     `json:"tools"`
	// ToolCount is how many tools the server has, as its Servers row
	// counts them (a name listed twice counts once); Summary says it in
	// words with what differs for the model: app-only tools, duplicates.
	ToolCount  int      `json:"toolCount"`
	AppOnly    []string `json:"appOnly"`
	Duplicates []string `json:"duplicates"`
	Summary    string   `json:"summary"`
	Failed     string   `json:"failed"`
	Error      string   `json:"error"`
	Stderr     []string `json:"stderr"`
}

// ReportStep is one timed step of a TestReport.
type ReportStep struct {
	Name  string  `json:"name"`
	Ms    float64 `json:"ms"`
	Error string  `json:"error"`
}

// Report turns the probe of the server called name into a TestReport;
// redact (nil: none) masks secrets in its error and stderr texts.
func Report(name string, p supervisor.Probe, redact func(string) string) TestReport {
	if redact == nil {
		redact = func(s string) string { return s }
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	r := TestReport{Server: name, OK: p.OK, TotalMs: ms(p.Total), Transport: p.Transport, ServerName: p.ServerInfo.Name,
		Version: p.ServerInfo.Version, Protocol: p.Protocol, Tools: p.Tools, Failed: p.Failed, Error: redact(p.Error),
		Steps: []ReportStep{}, Stderr: []string{}}
	for _, s := range p.Steps {
		r.Steps = append(r.Steps, ReportStep{Name: s.Name, Ms: ms(s.Took), Error: redact(s.Error)})
	}
	for _, l := range p.Stderr {
		r.Stderr = append(r.Stderr, redact(l))
	}
	if r.Tools == nil {
		r.Tools = []string{}
	}
	r.AppOnly = append([]string{}, p.AppOnly...)
	r.Duplicates = []string{}
	seen := map[string]bool{}
	for _, t := range r.Tools {
		if seen[t] && !slices.Contains(r.Duplicates, t) {
			r.Duplicates = append(r.Duplicates, t)
		}
		seen[t] = true
	}
	r.ToolCount = len(seen)
	if p.OK {
		r.Summary = ToolSummary(r.ToolCount, len(r.AppOnly), r.Duplicates)
	}
	return r
}

// ToolSummary says a server's tool count as its Servers row shows it, and
// what of it the model does not see ("12 tools, 2 of them app-only (not
// shown to the model)").
func ToolSummary(count, appOnly int, duplicates []string) string {
	s := fmt.Sprintf("%d tools", count)
	if count == 1 {
		s = "1 tool"
	}
	switch {
	case appOnly == 1 && count == 1:
		s += ", app-only (not shown to the model)"
	case appOnly == 1:
		s += ", 1 of them app-only (not shown to the model)"
	case appOnly > 1:
		s += fmt.Sprintf(", %d of them app-only (not shown to the model)", appOnly)
	}
	if len(duplicates) > 0 {
		s += fmt.Sprintf("; listed twice by the server, used once: %s", strings.Join(duplicates, ", "))
	}
	return s
}
