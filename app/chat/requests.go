package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// ElicitRequest is a server's request for information from the user: a form
// rendered from Schema (mode "form") or a URL to open (mode "url").
type ElicitRequest struct {
	ID      string          `json:"id"`
	ChatID  string          `json:"chatId,omitempty"`
	Server  string          `json:"server"`
	Mode    string          `json:"mode"`
	Message string          `json:"message"`
	Schema  json.RawMessage `json:"schema,omitempty"`
	URL     string          `json:"url,omitempty"`
	// Domain is the URL's host in ASCII (a name written with letters of
	// other alphabets in its xn-- form), shown beside it so the user sees
	// where the link goes (mode "url"); Registrable is the part of it a
	// person registers (evil.example of login.bank.example.evil.example),
	// which the card highlights; Written is the host as the URL wrote it,
	// when that differs from Domain (аpple.com for xn--pple-43d.com).
	Domain      string `json:"domain,omitempty"`
	Registrable string `json:"registrable,omitempty"`
	Written     string `json:"written,omitempty"`
	// Retry: a tool call failed with -32042 and runs again once the
	// server says the user finished (the card is then withdrawn) or the
	// user answers accept ("Done"). Without it, accept means the user
	// opened the URL.
	Retry bool `json:"retry,omitempty"`
}

// ElicitAnswer is the user's answer: accept (with Content), decline or cancel.
type ElicitAnswer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// Elicitor shows a form to the user and returns the answer. Elicit blocks
// until the user answers or ctx is done; it is called concurrently.
type Elicitor interface {
	Elicit(ctx context.Context, req ElicitRequest) (ElicitAnswer, error)
}

// Model is the model a server's sampling request goes to.
type Model struct {
	Provider provider.Provider
	Name     string
	// Images: the model accepts images (ProviderSettings.AcceptsImages).
	Images bool
	// Audio: the model accepts audio (ProviderSettings.AcceptsAudio).
	Audio bool
}

// media is what of a tool result goes to m as images and audio.
func (m Model) media() media { return media{images: m.Images, audio: m.Audio} }

// Requests answers requests that servers send to the app (it implements
// mcpmanager.RequestHandler). Whose call a request came from, the router
// says (router.TiedTo: the manager ties each one before it gets here, and
// refuses those it cannot tie): a chat's call (Party) is that chat's, and
// another caller's (the Tools page, 'tools call') is outside any chat. A
// sampling request is decided by the user's sampling settings
// (DecideSampling); when it may go on it goes to the model of the chat
// whose call it came from (its turn's, else ChatModel's), or to
// Fallback's outside a chat, with its maxTokens clamped (ClampMaxTokens),
// after the user approved the exact request when the settings ask. An
// elicitation is shown as a form, in that chat.
type Requests struct {
	Engine *Engine
	// Approver asks about sampling requests the settings say to ask
	// about. It is not the tool calls' approver when that one says yes to
	// everything (the CLI's --yes): nil refuses them.
	Approver Approver
	Elicitor Elicitor
	// Fallback picks the model for a request that came from no chat's call.
	Fallback func(ctx context.Context) (Model, error)
	// ChatModel is the model a chat uses (its provider and model), for a
	// request of the chat's that no turn of it is making (an MCP App's
	// call, or its own sampling, in that chat); nil (or no chat):
	// Fallback's.
	ChatModel func(ctx context.Context, chatID string) (Model, error)
	// Sampling reads the user's sampling settings, once per request (nil:
	// the defaults: ask, only during the server's own calls).
	Sampling func() SamplingSettings
	// OnRefused hears every sampling request refused without the user's
	// own "Deny" (settings, the cap, no way to ask), so the front door
	// shows it: the window in the chat, the CLI on stderr.
	OnRefused func(Refusal)

	meter samplingMeter
}

// Refusal is a sampling request Switchboard refused: Why is the sentence
// the server got.
type Refusal struct {
	ChatID string `json:"chatId,omitempty"`
	Server string `json:"server"`
	Why    string `json:"why"`
}

// Sentinel errors.
var (
	ErrSamplingDenied = errors.New("the user declined the server's request to use the model")
	// ErrSamplingRefused: the settings refused a sampling request (the
	// error's text says which).
	ErrSamplingRefused = errors.New("switchboard refused the request to use the model")
	ErrNoElicitor      = errors.New("this client cannot show forms")
)

// Party is what chat chatID's calls name as their caller
// (router.WithParty): a server's question the router ties to it is shown
// in that chat, and sampled with its model. An MCP App's calls in the chat
// name it too.
func Party(chatID string) any { return chatParty{chatID} }

// chatParty is a chat as the router's party: an attended one (its
// questions are the person's at this window or terminal).
type chatParty struct{ chatID string }

// Attended marks a chat as router.Attended.
func (chatParty) Attended() {}

// caller is the chat a question of server, asked under ctx, came from (""
// for none), and whether it came from anyone's call at all: what the tie
// in ctx says (router.TiedTo). A question with none is outside any call.
func caller(ctx context.Context, server string) (chatID string, inCall bool) {
	party, _ := router.TiedTo(ctx, server)
	p, _ := party.(chatParty)
	return p.chatID, party != nil
}

// CreateMessage implements sampling/createMessage.
func (q *Requests) CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	chatID, inCall := caller(ctx, server)
	m, engineCall := q.Engine.callModel(server, chatID)
	return q.createMessage(ctx, server, "", chatID, m, engineCall, inCall, req)
}

// CreateMessageForApp implements an MCP App's sampling/createMessage (ext-apps
// 2.x): the app appURI of server, shown in chatID ("" outside a chat), asks
// the model. It is decided and capped as its server's own requests are (the
// same settings, the server's per-minute cap, the chat's allowance) and
// asks on the same approval card, which names the app. An app asks from
// the user's screen, not on a schedule of its own, so it counts as in a
// call; the model is the one a chat's turn is using with the server, else
// the chat's own (ChatModel), else Fallback's.
func (q *Requests) CreateMessageForApp(ctx context.Context, chatID, server, appURI string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	m, engineCall := q.Engine.callModel(server, chatID)
	return q.createMessage(ctx, server, appURI, chatID, m, engineCall, true, req)
}

// createMessage decides, asks, and sends a sampling request; m is the
// model when engineCall (chatID's turn is calling the server), else the
// chat's (ChatModel), or outside a chat Fallback's.
func (q *Requests) createMessage(ctx context.Context, server, appURI, chatID string, m Model, engineCall, inCall bool, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	var s SamplingSettings
	if q.Sampling != nil {
		s = q.Sampling()
	}
	ruling := q.meter.decide(s, server, chatID, inCall)
	if ruling.Verdict == Refuse {
		return nil, q.refuse(chatID, server, ruling.Why)
	}
	if !engineCall {
		pick := q.Fallback
		if chatID != "" && q.ChatModel != nil {
			pick = func(ctx context.Context) (Model, error) { return q.ChatModel(ctx, chatID) }
		}
		if pick == nil {
			return nil, ErrNoProvider
		}
		var err error
		if m, err = pick(ctx); err != nil {
			return nil, err
		}
	}
	// The card shows, and the model gets, the clamped limit.
	req.MaxTokens = ClampMaxTokens(req.MaxTokens, m.Name)
	if ruling.Verdict == Ask {
		if q.Approver == nil {
			return nil, q.refuse(chatID, server, "there is no one to ask (set Settings → Chat → Sampling to allow)")
		}
		raw, _ := json.Marshal(req.CreateMessageParams)
		d, err := q.Approver.Approve(ctx, ApprovalRequest{ID: newID(), ChatID: chatID, Kind: KindSampling, Server: server, App: appURI, Arguments: raw, Tools: offeredTools(req.CreateMessageParams)})
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, q.refuse(chatID, server, "the user could not be asked: "+err.Error())
		}
		if d != ApproveOnce && d != ApproveAlways {
			return nil, ErrSamplingDenied
		}
	}
	pr, err := samplingRequest(m, req.CreateMessageParams)
	if err != nil {
		return nil, err
	}
	resp, err := m.Provider.Stream(ctx, pr, nil)
	if err != nil {
		return nil, fmt.Errorf("the model could not answer: %w", err)
	}
	return samplingResult(m.Name, resp), nil
}

// refuse tells the front door (OnRefused) and returns the server's error.
func (q *Requests) refuse(chatID, server, why string) error {
	if q.OnRefused != nil {
		q.OnRefused(Refusal{ChatID: chatID, Server: server, Why: why})
	}
	return fmt.Errorf("%w: %s", ErrSamplingRefused, why)
}

// samplingText flattens a sampling message's content (one content object or
// a list of them, decoded as generic JSON) to text.
func samplingText(c any) string {
	switch v := c.(type) {
	case mcp.TextContent:
		return v.Text
	case mcp.ImageContent, mcp.AudioContent: // described, as in a tool result (not its base64)
		return resultText(&mcp.CallToolResult{Content: []mcp.Content{v.(mcp.Content)}})
	case []any:
		var parts []string
		for _, p := range v {
			parts = append(parts, samplingText(p))
		}
		return strings.Join(parts, "\n")
	case map[string]any:
		if t, ok := v["text"].(string); ok {
			return t
		}
		if typ, _ := v["type"].(string); typ != "" {
			return "[" + typ + " content]"
		}
	}
	raw, _ := json.Marshal(c)
	return string(raw)
}

// Elicit implements elicitation/create.
func (q *Requests) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if q.Elicitor == nil {
		return nil, ErrNoElicitor
	}
	chatID, _ := caller(ctx, server)
	er := ElicitRequest{ID: newID(), ChatID: chatID, Server: server, Mode: req.Params.Mode, Message: req.Params.Message, URL: req.Params.URL}
	if er.Mode == "" {
		er.Mode = "form"
	}
	if er.Mode == mcp.ElicitationModeURL {
		u, err := CheckURL(er.URL)
		if err != nil {
			// Never shown, so never opened: the server learns it was declined.
			return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
		}
		site := SiteOf(u)
		er.Domain, er.Registrable, er.Written = site.Host, site.Registrable, site.Written
		if m := req.Params.Meta; m != nil {
			er.Retry, _ = m.AdditionalFields[router.RetryMeta].(bool)
		}
	}
	if req.Params.RequestedSchema != nil {
		raw, err := json.Marshal(req.Params.RequestedSchema)
		if err != nil {
			return nil, fmt.Errorf("elicitation schema: %w", err)
		}
		er.Schema = raw
	}
	ans, err := q.Elicitor.Elicit(ctx, er)
	if err != nil {
		return nil, err
	}
	res := &mcp.ElicitationResult{}
	switch ans.Action {
	case "accept":
		res.Action = mcp.ElicitationResponseActionAccept
		if er.Mode == "form" {
			res.Content = ans.Content // the supervisor adds the schema's defaults (SEP-1034)
		}
	case "decline":
		res.Action = mcp.ElicitationResponseActionDecline
	default:
		res.Action = mcp.ElicitationResponseActionCancel
	}
	return res, nil
}

// ErrURLScheme means a URL elicitation's URL is not a web page.
var ErrURLScheme = errors.New("only http and https links are opened")

// Site is how a link's host is shown to a person deciding to open it.
type Site struct {
	// Host in ASCII: a look-alike written with letters of other alphabets
	// ("аpple.com", Cyrillic а) shows as what it is, xn--pple-43d.com.
	Host string
	// Registrable is the domain a person registers (eTLD+1 of the public
	// suffix list): evil.example of apple.com.login.evil.example. The host
	// itself for an IP address or a single label (localhost).
	Registrable string
	// Written is the host as the URL wrote it when it differs from Host.
	Written string
}

// SiteOf is u's Site.
func SiteOf(u *url.URL) Site {
	written := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	host, err := idna.Lookup.ToASCII(written)
	if err != nil { // not a valid IDN: plain punycode, never the raw text
		if host, err = idna.Punycode.ToASCII(written); err != nil {
			host = url.PathEscape(written)
		}
	}
	s := Site{Host: host, Registrable: host}
	if net.ParseIP(host) == nil {
		if r, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
			s.Registrable = r
		}
	}
	if written != host {
		s.Written = written
	}
	return s
}

// CheckURL parses a URL a server asks the user to open (URL-mode
// elicitation): absolute http(s) with a host, and no credentials (which
// would read like the domain). Anything else is never shown or opened.
func CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%w: %q", ErrURLScheme, raw)
	}
	return u, nil
}
