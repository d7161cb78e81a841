package gui

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/host"
)

// EventServerStatus carries a ServerView whenever a server changes state.
const EventServerStatus = "server:status"

// ServerView is one server as the Servers page shows it.
type ServerView struct {
	Name       string   `json:"name"`
	State      string   `json:"state"`
	Error      string   `json:"error"`
	PID        int      `json:"pid"`
	Restarts   int      `json:"restarts"`
	Transport  string   `json:"transport"`
	Command    string   `json:"command"`
	ToolCount  int      `json:"toolCount"`
	ServerName string   `json:"serverName"`
	Version    string   `json:"version"`
	Since      string   `json:"since"`
	Calls      int64    `json:"calls"`
	Errors     int64    `json:"errors"`
	P50Ms      float64  `json:"p50Ms"`
	StderrTail []string `json:"stderrTail"`
	// Progress is the package manager's last line while State is
	// "installing" (npx, uvx, docker downloading before the first start).
	Progress string `json:"progress"`
	// Bundle is what the MCP Bundle it was installed from says (nil for others).
	Bundle *BundleInfoView `json:"bundle"`
	// Library metadata: what the user wrote (Meta) and what is shown
	// (Description falls back to what the server said in initialize).
	Meta         MetaView `json:"meta"`
	Description  string   `json:"description"`
	Title        string   `json:"title"`
	Instructions string   `json:"instructions"`
	DocsURL      string   `json:"docsUrl"`
	UsedBy       []string `json:"usedBy"`
	// Icon is the server's own icon (serverInfo.icons): a data: URL, or an
	// https: URL to pass to Content.Icon; "" when it has none.
	Icon string `json:"icon"`
	// Roots are the folders the server is offered as its MCP roots;
	// RootsRule says which rule chose them ("configured": the folders its
	// arguments name; "workspace"; "both"; "list": its entry lists them;
	// "none"), RootsMode is the entry's choice ("auto" unless set) and
	// ConfiguredFolders the folders its arguments name.
	Roots             []string `json:"roots"`
	RootsRule         string   `json:"rootsRule"`
	RootsMode         string   `json:"rootsMode"`
	ConfiguredFolders []string `json:"configuredFolders"`
	// Logging: it offers MCP logging; LogLevel is the level asked of it
	// ("" for its own default).
	Logging  bool   `json:"logging"`
	LogLevel string `json:"logLevel"`
	// Protocol is the MCP revision the server speaks ("2026-07-28",
	// "2025-11-25", ...; "" until it is ready).
	Protocol string `json:"protocol"`
	// Sandboxed: a local server whose entry runs it in a sandbox
	// (Sandbox has its settings).
	Sandboxed bool `json:"sandboxed"`
	// Seq orders status updates: a view with a lower Seq than one already
	// shown for the server is stale.
	Seq int64 `json:"seq"`
}

// ToolView is one tool as the Tools page shows it.
type ToolView struct {
	Name        string `json:"name"`   // server__tool
	Server      string `json:"server"` // configured server name
	Tool        string `json:"tool"`   // the server's own name
	Title       string `json:"title"`
	Description string `json:"description"`
	InputSchema string `json:"inputSchema"` // JSON Schema, as JSON text
	ReadOnly    bool   `json:"readOnly"`
	Destructive bool   `json:"destructive"`
	// DefaultPolicy is what a chat does when no setting names the tool:
	// "allow" (runs) or "ask".
	DefaultPolicy string `json:"defaultPolicy"`
	// Icon is the tool's icon as ServerView.Icon.
	Icon string `json:"icon"`
	// Warnings are hidden instructions toolcheck found in the definition.
	Warnings []host.WarningView `json:"warnings"`
	// OutputSchema is the tool's outputSchema as JSON text, "" when none.
	OutputSchema string `json:"outputSchema"`
}

// ToolList is every tool plus the servers that could not be listed.
type ToolList struct {
	Tools  []ToolView        `json:"tools"`
	Errors []ServerErrorView `json:"errors"`
}

// ServerErrorView is a server whose tools (or skills) could not be listed.
type ServerErrorView struct {
	Server string `json:"server"`
	// Tool is set when one tool was left out and the server's other tools
	// are listed (withheld until its changed definition is reviewed, or
	// named twice): the page then says so of the tool, not of the server.
	Tool  string `json:"tool,omitempty"`
	Error string `json:"error"`
}

// errorViews are errs as the window shows them (never nil: an empty list
// crosses the binding as [], not null).
func errorViews(errs []host.ServerError) []ServerErrorView {
	out := make([]ServerErrorView, 0, len(errs))
	for _, e := range errs {
		out = append(out, ServerErrorView{Server: e.Server, Tool: e.Tool, Error: e.Err})
	}
	return out
}

func (a *core) statusView(st host.ServerStatus) ServerView {
	v := ServerView{
		Name: st.Name, State: string(st.State), Error: st.Error, PID: st.PID, Restarts: st.Restarts,
		ServerName: st.ServerInfo.Name, Version: st.ServerInfo.Version, Transport: "stdio",
		Icon:     a.iconSrc(st.ServerInfo.Icons),
		Progress: st.Progress,
	}
	if !st.Since.IsZero() {
		v.Since = st.Since.Format(time.RFC3339)
	}
	if st.Builtin {
		v.Transport, v.Command = "built-in", "inside Switchboard"
	}
	c, ok := a.h.Servers.Get(st.Name)
	if ok {
		v.Bundle = bundleView(c)
	}
	if ok && !st.Builtin {
		c = a.h.Library.AsRun(c) // show what runs: the active profile's URL or arguments
		v.Transport = string(c.Transport)
		v.Command = c.Target()
		v.Sandboxed = c.Sandbox != nil && c.Transport == host.TransportStdio
	}
	if m, ok := a.h.Tools.Metrics()[st.Name]; ok {
		v.Calls, v.Errors, v.P50Ms = m.Calls, m.Errors, float64(m.P50.Microseconds())/1000
	}
	v.Roots, v.Logging, v.LogLevel, v.Protocol = []string{}, st.Logging, st.LogLevel, st.Protocol
	v.ConfiguredFolders = []string{}
	if r, ok := a.h.Servers.Applied().Roots[st.Name]; ok {
		v.RootsRule, v.RootsMode = r.Rule, r.Mode
		v.ConfiguredFolders = append(v.ConfiguredFolders, r.Configured...)
	}
	v.StderrTail, _ = a.h.ServerLogs.Lines(st.Name, 50)
	v.Roots = append(v.Roots, a.h.Servers.Roots(st.Name)...)
	if st.State == host.ServerReady {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if tools, err := a.h.Tools.Of(ctx, st.Name); err == nil {
			v.ToolCount = len(tools)
		}
	}
	if v.StderrTail == nil {
		v.StderrTail = []string{}
	}
	a.fillMeta(&v, st, c)
	v.Error, v.Command = a.h.Redact(v.Error), a.h.Redact(v.Command)
	return v
}

// EventServerLogin carries a LoginView while a login waits for the browser,
// so the page can offer the link in case no browser opened.
const EventServerLogin = "server:login"

// LoginView is a login in progress.
type LoginView struct {
	Name string `json:"name"`
	URL  string `json:"url"` // the authorization URL the browser was sent to
}

// outputSchemaText is a tool's outputSchema as JSON text, "" when none.
func outputSchemaText(t mcp.Tool) string {
	if len(t.RawOutputSchema) > 0 {
		return string(t.RawOutputSchema)
	}
	if t.OutputSchema.Type == "" {
		return ""
	}
	b, err := json.Marshal(t.OutputSchema)
	if err != nil {
		return ""
	}
	return string(b)
}
