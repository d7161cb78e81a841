package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Kind is the wire format a provider speaks.
type Kind string

// Kinds.
const (
	// KindOpenAI is any OpenAI-compatible chat-completions server; BaseURL
	// includes the /v1 (default https://api.openai.com/v1).
	KindOpenAI Kind = "openai"
	// KindAnthropic is the Anthropic Messages API; BaseURL is the host
	// without /v1 (default https://api.anthropic.com).
	KindAnthropic Kind = "anthropic"
	// KindOllama is an Ollama server, spoken to in its native API: chat at
	// BaseURL/api/chat, models from BaseURL/api/tags (default
	// http://127.0.0.1:11434; a /v1 on BaseURL is dropped).
	KindOllama Kind = "ollama"
)

// Default base URLs, used when Config.BaseURL is empty.
const (
	DefaultOpenAIURL    = "https://api.openai.com/v1"
	DefaultAnthropicURL = "https://api.anthropic.com"
	DefaultOllamaURL    = "http://127.0.0.1:11434"
)

// Config says how to reach one provider.
type Config struct {
	Kind Kind
	// Name is the user's label for the provider; errors name it so the user
	// knows which entry in Settings to fix.
	Name    string
	BaseURL string
	APIKey  string
	// HTTPClient is used for every request; nil means a client with
	// connection and header timeouts but no overall timeout (a streamed
	// answer may take minutes).
	HTTPClient *http.Client
}

// Provider is one configured model provider. It is safe for concurrent use:
// each Stream call has its own state, and on is called from the calling
// goroutine only, in stream order.
type Provider interface {
	// Stream sends req and calls on for each event as the answer streams
	// in; the returned Response is the whole answer. On error the Response
	// holds what arrived before it (see ErrIncomplete).
	Stream(ctx context.Context, req Request, on func(Event)) (Response, error)
	// Models lists the models the provider offers, sorted by ID.
	Models(ctx context.Context) ([]Model, error)
}

// ToolLimiter is a Provider whose API takes at most MaxTools tool
// definitions in one request (0: no limit): past it the request is
// refused, so the chat offers find_tools instead.
type ToolLimiter interface {
	MaxTools() int
}

// MaxTools is p's limit on the tools of one request, 0 when it has none.
func MaxTools(p Provider) int {
	if l, ok := p.(ToolLimiter); ok {
		return l.MaxTools()
	}
	return 0
}

// Model is one model a provider offers.
type Model struct {
	ID   string `json:"id"`
	Name string `json:"name"` // display name; the ID when the provider has none
	// ContextWindow is the model's input limit in tokens, 0 when the
	// provider does not say.
	ContextWindow int `json:"contextWindow,omitempty"`
}

// Request is one turn to send.
type Request struct {
	Model    string
	System   string
	Messages []Message
	Tools    []Tool
	// MaxTokens caps the answer; 0 leaves it to the provider (Anthropic,
	// which requires it, gets DefaultMaxTokens).
	MaxTokens   int
	Temperature *float64
	// Stop are sequences that end the answer where the model writes one
	// (a server's sampling request's stopSequences). OpenAI takes up to
	// four: more are cut to four there.
	Stop []string
	// ToolChoice says whether the model must, may or must not call one of
	// Tools; "" is ToolChoiceAuto. (Sampling requests from servers set it.)
	ToolChoice ToolChoice
}

// ToolChoice is how a model may use the tools it is offered.
type ToolChoice string

// Tool choices.
const (
	ToolChoiceAuto     ToolChoice = "auto"     // the model decides
	ToolChoiceRequired ToolChoice = "required" // it calls at least one tool
	ToolChoiceNone     ToolChoice = "none"     // it calls none
)

// Role says who a Message is from.
type Role string

// Roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool" // a tool's result, answering ToolCallID
)

// Message is one message of the conversation so far.
type Message struct {
	Role Role
	Text string
	// ToolCalls are the calls an assistant turn made.
	ToolCalls []ToolCall
	// ToolCallID is, for RoleTool, the call this result answers.
	ToolCallID string
	// ToolName is, for RoleTool, the called tool's name.
	ToolName string
	// IsError is, for RoleTool, whether the tool failed.
	IsError bool
	// Images go with the message as images the model sees: for RoleTool
	// the images the tool returned (Anthropic: image blocks inside the
	// tool_result; OpenAI-compatible: a user message with image parts
	// right after the step's tool messages, since tool messages carry text
	// only; Ollama: the tool message's images field), for RoleUser images
	// of the user's turn (a sampling request's). Send them only to models
	// that accept images.
	Images []Image
	// Audio goes with the message as audio the model hears, the way Images
	// do on the OpenAI-compatible wire (input_audio parts in the user
	// message after the step's tool messages, or in a RoleUser message's
	// parts). Anthropic's and Ollama's wires take no audio: they leave it
	// out, so callers never attach audio for those kinds and keep its
	// description in Text instead (chat's AcceptsAudio decides).
	Audio []Audio
}

// Audio is one audio clip for the model.
type Audio struct {
	Format string // "wav" or "mp3", what OpenAI's input_audio takes
	Data   string // base64
}

// Image is one image for the model.
type Image struct {
	MIMEType string // image/png, image/jpeg, image/gif or image/webp
	Data     string // base64
}

// dataURL is img as a data: URL (OpenAI's image_url).
func (img Image) dataURL() string { return "data:" + img.MIMEType + ";base64," + img.Data }

// ToolCall is one call a model asked for. Name is always the caller's
// tool name, never the provider-safe alias sent on the wire.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is the JSON the model wrote, "{}" when it wrote nothing. It
	// is not validated: a model can write broken JSON, and the tool loop
	// should answer that with a tool error rather than lose the call.
	Arguments json.RawMessage
}

// Tool is a tool offered to the model.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage // a JSON Schema object; empty means {"type":"object"}
	// Server is the MCP server the tool comes from; not sent, but named
	// in an error when the provider refuses the tool's definition.
	Server string
}

// EventKind says what an Event carries.
type EventKind int

// Event kinds.
const (
	// EventText is a piece of answer text (Text).
	EventText EventKind = iota + 1
	// EventToolCallStart is a new tool call (Index, ID, Name).
	EventToolCallStart
	// EventToolCallArgs is a piece of a call's arguments (Index, ID,
	// ArgsDelta).
	EventToolCallArgs
	// EventRetry is a wait before trying again (Attempt from 1, After, and
	// Err, the rate-limit error being waited out).
	EventRetry
)

// Event is one streamed piece of an answer. Index is the tool call's
// position in Response.ToolCalls.
type Event struct {
	Kind      EventKind
	Text      string
	Index     int
	ID        string
	Name      string
	ArgsDelta string
	Attempt   int
	After     time.Duration
	Err       error
}

// StopReason says why the model stopped.
type StopReason string

// Stop reasons.
const (
	StopEnd       StopReason = "end"        // the answer is complete
	StopToolUse   StopReason = "tool_use"   // the model waits for tool results
	StopMaxTokens StopReason = "max_tokens" // cut at Request.MaxTokens
	// StopSequence: the model wrote one of Request.Stop. Only Anthropic
	// says so; the other wires report it as StopEnd.
	StopSequence StopReason = "stop_sequence"
)

// Response is a whole answer.
type Response struct {
	Text      string
	ToolCalls []ToolCall
	Stop      StopReason
	Usage     Usage
}

// Usage is what the turn cost, as the provider reported it; zero when it
// did not. InputTokens includes cached input.
type Usage struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	// CacheReadTokens is the part of InputTokens read from the provider's
	// prompt cache (Anthropic's cache_read_input_tokens, OpenAI's
	// prompt_tokens_details.cached_tokens), CacheCreationTokens the part
	// written to it (Anthropic's cache_creation_input_tokens).
	CacheReadTokens     int `json:"cacheReadTokens,omitempty"`
	CacheCreationTokens int `json:"cacheCreationTokens,omitempty"`
}

// DefaultMaxTokens is the answer limit sent to Anthropic when
// Request.MaxTokens is 0 (the API requires one).
var DefaultMaxTokens = 4096

// ResponseHeaderTimeout bounds the wait for a response's headers with the
// default HTTP client. Generous, because Ollama answers only once the model
// is loaded; the body (the streamed answer) has no limit.
var ResponseHeaderTimeout = 5 * time.Minute

// New returns the provider cfg describes. It validates the base URL: it must
// be http(s), and plain http is accepted only for this machine and the
// local network, because the API key would travel unencrypted.
func New(cfg Config) (Provider, error) {
	if cfg.Name == "" {
		cfg.Name = string(cfg.Kind)
	}
	var def string
	switch cfg.Kind {
	case KindOpenAI:
		def = DefaultOpenAIURL
	case KindAnthropic:
		def = DefaultAnthropicURL
	case KindOllama:
		def = DefaultOllamaURL
	default:
		return nil, &Error{Provider: cfg.Name, Op: "configure", Err: fmt.Errorf("%w: unknown kind %q; use %q, %q or %q", ErrConfig, cfg.Kind, KindOpenAI, KindAnthropic, KindOllama)}
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = def
	}
	base, err := checkBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, &Error{Provider: cfg.Name, Op: "configure", Err: err}
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = defaultHTTPClient()
	}
	switch cfg.Kind {
	case KindAnthropic:
		// The SDK appends v1/messages itself; accept the /v1 users copy from docs.
		base.Path = strings.TrimSuffix(strings.TrimSuffix(base.Path, "/"), "/v1")
		return newAnthropic(cfg, base), nil
	case KindOllama:
		base.Path = strings.TrimSuffix(strings.TrimSuffix(base.Path, "/"), "/v1")
		return newOllama(cfg, base), nil
	default:
		return newOpenAI(cfg, base), nil
	}
}

// checkBaseURL parses raw and refuses what would leak the key or cannot work.
func checkBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%w: base URL %q is not a URL; use one like https://api.example.com/v1", ErrConfig, redactURL(raw))
	}
	if u.User != nil {
		return nil, fmt.Errorf("%w: base URL %q contains credentials; put the key in the API key field instead", ErrConfig, redactURL(raw))
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !localHost(u.Hostname()) {
			return nil, fmt.Errorf("%w: base URL %q would send the API key unencrypted; use https:// (plain http is allowed only for this machine and the local network)", ErrConfig, raw)
		}
	default:
		return nil, fmt.Errorf("%w: base URL %q must start with https:// (or http:// for this machine and the local network)", ErrConfig, redactURL(raw))
	}
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// localHost says whether host is this machine or on the local network:
// loopback, private and link-local addresses, and names that only resolve
// locally (localhost, single labels, .local, .lan, .internal, .home.arpa).
func localHost(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast()
	}
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || !strings.Contains(h, ".") {
		return true
	}
	for _, suffix := range []string{".localhost", ".local", ".lan", ".internal", ".home.arpa"} {
		if strings.HasSuffix(h, suffix) {
			return true
		}
	}
	return false
}

func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = url.User("REDACTED")
	return u.String()
}

// defaultHTTPClient is the client of a provider opened without one. The
// app opens its provider again for every turn, so the clients share one
// transport: a turn reuses the connection (and TLS session) the last one
// left open instead of dialling again, and the idle connections are one
// pool's, not one left behind per turn (each kept two goroutines and its
// buffers until its 90 s idle timeout; a day of use in the window counted
// 500 such goroutines).
func defaultHTTPClient() *http.Client {
	return &http.Client{Transport: sharedTransport(ResponseHeaderTimeout)}
}

var (
	transportsMu sync.Mutex
	transports   = map[time.Duration]*http.Transport{} // by ResponseHeaderTimeout (a var tests may change)
)

// sharedTransport is the one transport of the default clients with this
// response header timeout.
func sharedTransport(headerTimeout time.Duration) *http.Transport {
	transportsMu.Lock()
	defer transportsMu.Unlock()
	if t := transports[headerTimeout]; t != nil {
		return t
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = headerTimeout
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	transports[headerTimeout] = t
	return t
}
