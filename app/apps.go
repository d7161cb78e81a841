package app

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/host"
	"github.com/switchboard-app/switchboard/mcpmanager/apps"
)

// Apps is MCP Apps in the window: a tool card (chat, Tools page) whose
// tool names a ui:// resource renders it through these methods, and the
// app's requests to the host come back through them.
type Apps struct{ *core }

// AppToolView says whether a tool has an app.
type AppToolView struct {
	Name        string `json:"name"` // exposed name (server__tool)
	Server      string `json:"server"`
	Tool        string `json:"tool"`        // the server's own name
	ResourceURI string `json:"resourceUri"` // "" when the tool has no app
	ToolJSON    string `json:"toolJson"`    // the tool as listed, for hostContext.toolInfo
}

// AppCSPView is the resource's declared CSP domains (the bridge passes them
// on; the proxy page's header is built from them by Go).
type AppCSPView struct {
	ConnectDomains  []string `json:"connectDomains"`
	ResourceDomains []string `json:"resourceDomains"`
	FrameDomains    []string `json:"frameDomains"`
	BaseURIDomains  []string `json:"baseUriDomains"`
}

// AppView is an app ready to load in the sandbox proxy.
type AppView struct {
	Server        string           `json:"server"`
	URI           string           `json:"uri"`
	HTML          string           `json:"html"`
	ProxyURL      string           `json:"proxyUrl"`
	CSP           *AppCSPView      `json:"csp,omitempty"`
	Policy        string           `json:"policy"` // the Content-Security-Policy the app runs under
	Permissions   apps.Permissions `json:"permissions"`
	Allow         string           `json:"allow"` // the frames' allow attribute
	PrefersBorder bool             `json:"prefersBorder"`
	// Session names this opening of the app; its downloads pass it back
	// (what it may save is counted per session, host.Opened.Session).
	Session string `json:"session"`
}

func (a *Apps) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(cmp.Or(a.wailsContext(), context.Background()), 60*time.Second)
}

func (a *Apps) appsHost() (*host.Apps, error) {
	if a.apps == nil {
		return nil, errors.New("MCP Apps are unavailable: the sandbox proxy could not start (see the log)")
	}
	return a.apps, nil
}

// ToolApp returns whether the tool (server__tool) has an app.
func (a *Apps) ToolApp(name string) (AppToolView, error) {
	ah, err := a.appsHost()
	if err != nil {
		return AppToolView{}, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	t, ui, err := ah.Tool(ctx, name)
	if err != nil {
		return AppToolView{Name: name}, nil // gone or withheld: the card shows no app
	}
	b, _ := json.Marshal(t.Tool)
	return AppToolView{Name: t.Name, Server: t.Server, Tool: t.Tool.Name, ResourceURI: ui.ResourceURI, ToolJSON: string(b)}, nil
}

// OpenApp reads the server's ui:// resource and returns it with the URL of
// a sandbox proxy page made for it.
func (a *Apps) OpenApp(server, uri string) (AppView, error) {
	ah, err := a.appsHost()
	if err != nil {
		return AppView{}, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	o, err := ah.Open(ctx, server, uri)
	if err != nil {
		return AppView{}, fmt.Errorf("the app of %s could not be loaded: %w", server, err)
	}
	v := AppView{Server: server, URI: uri, HTML: o.HTML, ProxyURL: o.ProxyURL, Policy: o.Meta.Header(),
		Permissions: o.Meta.Permissions, Allow: o.Meta.Permissions.Allow(), Session: o.Session}
	if c := o.Meta.CSP; c != nil {
		v.CSP = &AppCSPView{ConnectDomains: c.ConnectDomains, ResourceDomains: c.ResourceDomains, FrameDomains: c.FrameDomains, BaseURIDomains: c.BaseURIDomains}
	}
	v.PrefersBorder = o.Meta.PrefersBorder == nil || *o.Meta.PrefersBorder
	return v, nil
}

// CallTool is an app's tools/call to its own server (tool under the
// server's name), with the chat's approval policy; it returns the
// CallToolResult as JSON. chatID is "" outside a chat (the Tools page).
func (a *Apps) CallTool(chatID, server, tool, argsJSON string) (string, error) {
	ah, err := a.appsHost()
	if err != nil {
		return "", err
	}
	var args map[string]any
	if argsJSON != "" {
		if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
			return "", fmt.Errorf("arguments must be a JSON object: %w", err)
		}
	}
	ctx, cancel := context.WithCancel(cmp.Or(a.wailsContext(), context.Background()))
	defer cancel()
	res, err := ah.Call(ctx, chatID, server, tool, args, a.asker, a.engine, a.chatAgent(ctx, chatID))
	if err != nil {
		return "", errors.New(a.h.Redact(err.Error()))
	}
	b, err := json.Marshal(res)
	if err != nil {
		return "", err
	}
	return a.h.Redact(string(b)), nil
}

// chatAgent is the agent chatID runs (nil: none, no chat, or one deleted
// since: its chats go on with the defaults, as their turns do).
func (a *Apps) chatAgent(ctx context.Context, chatID string) *chat.Agent {
	if chatID == "" {
		return nil
	}
	h, err := a.historyStore()
	if err != nil {
		return nil
	}
	c, err := h.Chat(ctx, chatID)
	if err != nil || c.Agent == "" {
		return nil
	}
	s, err := a.h.Settings.Chat()
	if err != nil {
		return nil
	}
	return s.ChatAgent(c.Agent)
}

// ReadResource is an app's resources/read on its own server, as JSON.
func (a *Apps) ReadResource(server, uri string) (string, error) {
	ah, err := a.appsHost()
	if err != nil {
		return "", err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	res, err := ah.Read(ctx, server, uri)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(res)
	return string(b), err
}

// Log is an app's notifications/message, kept in its server's log.
func (a *Apps) Log(server, level, text string) error {
	ah, err := a.appsHost()
	if err != nil {
		return err
	}
	return ah.Log(server, level, text)
}

// SetModelContext keeps the ui/update-model-context of the app uri of
// server for the chat's next model step (each update of an app replaces
// its last). Text that is too long or looks like instructions to the model
// is not kept: the app gets the error, and the chat shows it to the user.
func (a *Apps) SetModelContext(chatID, server, uri, text string) error {
	ah, err := a.appsHost()
	if err != nil {
		return err
	}
	if err := ah.SetModelContext(chatID, server, uri, text); err != nil {
		a.notify(Notice{ChatID: chatID, Server: server, Kind: NoticeAppContext, Text: appContextNotice(server, uri, err)})
		return err
	}
	return nil
}

// OpenLink opens an app's ui/open-link in the system browser (the window
// asked the user first); only http and https.
func (a *Apps) OpenLink(link string) error {
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("only http and https links open: %q", link)
	}
	if ctx := a.wailsContext(); ctx != nil {
		wruntime.BrowserOpenURL(ctx, u.String())
	}
	return nil
}
