package gui

import (
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/switchboard-app/switchboard/app/host"
)

// DescribeDownload reads an app's ui/download-file contents (JSON) and
// says which files it would save, under which safe names; a request past
// the limits of one request or of the app's session (AppView.Session) is
// refused before the user is asked.
func (a *MCPApps) DescribeDownload(session, server, contentsJSON string) ([]AppDownloadView, error) {
	ah, err := a.appsHost()
	if err != nil {
		return nil, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	files, err := ah.Download(ctx, server, []byte(contentsJSON))
	if err != nil {
		return nil, err
	}
	if err := ah.Offer(session, files); err != nil {
		return nil, err
	}
	out := make([]AppDownloadView, len(files))
	for i, f := range files {
		out[i] = AppDownloadView{Name: f.Name, MIMEType: f.MIMEType, Size: len(f.Data)}
	}
	return out, nil
}

// SaveDownload saves file index of an app's ui/download-file once the
// user agreed: the system's save dialog, in the downloads folder, offers
// the file's safe name. It returns the path written, or "" when the user
// cancelled the dialog. The file is taken from what the app's session may
// still save.
func (a *MCPApps) SaveDownload(session, server, contentsJSON string, index int) (string, error) {
	ah, err := a.appsHost()
	if err != nil {
		return "", err
	}
	wctx := a.wailsContext()
	if wctx == nil {
		return "", errors.New("no window to show the save dialog in")
	}
	ctx, cancel := a.ctx()
	defer cancel()
	files, err := ah.Download(ctx, server, []byte(contentsJSON))
	if err != nil {
		return "", err
	}
	if index < 0 || index >= len(files) {
		return "", errors.New("the download has no such file")
	}
	path, err := wruntime.SaveFileDialog(wctx, wruntime.SaveDialogOptions{
		Title: "Save a file from " + server, DefaultDirectory: ah.DownloadsDir(), DefaultFilename: files[index].Name,
		CanCreateDirectories: true,
	})
	if err != nil || path == "" {
		return "", err
	}
	// What was read before the dialog is saved: the user may take longer to choose than a read may.
	if err := ah.SaveDownload(session, files[index], path); err != nil {
		return "", err
	}
	return path, nil
}

// MCPApps is MCP Apps in the window: a tool card (chat, Tools page) whose
// tool names a ui:// resource renders it through these methods, and the
// app's requests to the host come back through them.
type MCPApps struct{ *core }

func (a *MCPApps) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(cmp.Or(a.wailsContext(), context.Background()), 60*time.Second)
}

func (a *MCPApps) appsHost() (*host.MCPApps, error) {
	if a.apps == nil {
		return nil, errors.New("MCP Apps are unavailable: the sandbox proxy could not start (see the log)")
	}
	return a.apps, nil
}

// ToolApp returns whether the tool (server__tool) has an app.
func (a *MCPApps) ToolApp(name string) (AppToolView, error) {
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
func (a *MCPApps) OpenApp(server, uri string) (AppView, error) {
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
		Permissions: host.PermissionsView(o.Meta.Permissions), Allow: o.Meta.Permissions.Allow(), Session: o.Session}
	if c := o.Meta.CSP; c != nil {
		v.CSP = &AppCSPView{ConnectDomains: c.ConnectDomains, ResourceDomains: c.ResourceDomains, FrameDomains: c.FrameDomains, BaseURIDomains: c.BaseURIDomains}
	}
	v.PrefersBorder = o.Meta.PrefersBorder == nil || *o.Meta.PrefersBorder
	return v, nil
}

// CallTool is an app's tools/call to its own server (tool under the
// server's name), with the chat's approval policy; it returns the
// CallToolResult as JSON. chatID is "" outside a chat (the Tools page).
func (a *MCPApps) CallTool(chatID, server, tool, argsJSON string) (string, error) {
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
	res, err := ah.Call(ctx, host.AppCall{ChatID: chatID, Server: server, Tool: tool, Args: args, Ask: a.asker, Agent: a.chatAgent(ctx, chatID)})
	if err != nil {
		return "", err // secrets masked at the source, as the result (router.Redactor)
	}
	b, err := json.Marshal(res)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// chatAgent is the agent chatID runs (nil: none, no chat, or one deleted
// since: its chats go on with the defaults, as their turns do).
func (a *MCPApps) chatAgent(ctx context.Context, chatID string) *host.ChatAgent {
	if chatID == "" {
		return nil
	}
	c, err := a.h.Chats.Get(ctx, chatID)
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
func (a *MCPApps) ReadResource(server, uri string) (string, error) {
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
func (a *MCPApps) Log(server, level, text string) error {
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
func (a *MCPApps) SetModelContext(chatID, server, uri, text string) error {
	ah, err := a.appsHost()
	if err != nil {
		return err
	}
	if err := ah.SetModelContext(host.ModelContext{ChatID: chatID, Server: server, App: uri, Text: text}); err != nil {
		a.notify(Notice{ChatID: chatID, Server: server, Kind: NoticeAppContext, Text: appContextNotice(server, uri, err)})
		return err
	}
	return nil
}

// OpenLink opens an app's ui/open-link in the system browser (the window
// asked the user first); only http and https.
func (a *MCPApps) OpenLink(link string) error {
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("only http and https links open: %q", link)
	}
	if ctx := a.wailsContext(); ctx != nil {
		wruntime.BrowserOpenURL(ctx, u.String())
	}
	return nil
}

// Sample is an MCP App's sampling/createMessage (paramsJSON: the request's
// params) from the app uri of server, shown in chatID ("" outside a chat):
// decided, asked about on the sampling approval card and capped exactly as
// the server's own requests are (host.ChatRequests.CreateMessageForApp). It
// returns the CreateMessageResult as JSON.
func (a *MCPApps) Sample(chatID, server, uri, paramsJSON string) (string, error) {
	if a.requests == nil {
		return "", errors.New("sampling is unavailable")
	}
	var req mcp.CreateMessageRequest
	if err := json.Unmarshal([]byte(paramsJSON), &req.CreateMessageParams); err != nil {
		return "", fmt.Errorf("the app's sampling request is not valid: %w", err)
	}
	if len(req.Messages) == 0 {
		return "", errors.New("the app's sampling request has no messages")
	}
	ctx, cancel := context.WithCancel(cmp.Or(a.wailsContext(), context.Background()))
	defer cancel()
	res, err := a.requests.CreateMessageForApp(ctx, chatID, server, uri, req)
	if err != nil {
		return "", errors.New(a.h.Redact(err.Error()))
	}
	b, err := json.Marshal(res)
	return string(b), err
}

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
	Server        string              `json:"server"`
	URI           string              `json:"uri"`
	HTML          string              `json:"html"`
	ProxyURL      string              `json:"proxyUrl"`
	CSP           *AppCSPView         `json:"csp,omitempty"`
	Policy        string              `json:"policy"` // the Content-Security-Policy the app runs under
	Permissions   host.AppPermissions `json:"permissions"`
	Allow         string              `json:"allow"` // the frames' allow attribute
	PrefersBorder bool                `json:"prefersBorder"`
	// Session names this opening of the app; its downloads pass it back
	// (what it may save is counted per session, host.Opened.Session).
	Session string `json:"session"`
}

// AppDownloadView is one file of an app's ui/download-file, as the window
// asks the user about it: its safe name, type and size.
type AppDownloadView struct {
	Name     string `json:"name"`
	MIMEType string `json:"mimeType"`
	Size     int    `json:"size"`
}

// chatModel is the model chatID uses (its provider and model), for an MCP
// App's sampling in that chat.
func (c *core) chatModel(ctx context.Context, chatID string) (host.ChatModel, error) {
	ch, err := c.h.Chats.Get(ctx, chatID)
	if err != nil {
		return host.ChatModel{}, err
	}
	s, err := c.h.Settings.Chat()
	if err != nil {
		return host.ChatModel{}, err
	}
	m, _, err := c.h.Chats.Model(s, ch.Provider, ch.Model)
	return m, err
}
