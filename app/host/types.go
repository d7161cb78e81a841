package host

import (
	"encoding/json"
	"net/url"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// The words the front doors share with the engine. A server's row in
// config.json, a chat's settings, a turn's events and the questions a turn
// asks are defined by the package that owns them (config, chat), and the
// host names them here, so the window and the CLI import the host alone:
// as go-sdk's mcp package names its internal jsonrpc types, these are
// aliases, the same types under the host's name, with no copying between
// them. A door calls no function of config or chat; what it needs of
// their logic is a method of a host part or one of the few plain
// functions at the end of this file.

// A server's configuration, as config.json holds it and the Servers part
// takes and returns it.
type (
	// Server is one server's entry in config.json (mcpServers.NAME with
	// Switchboard's own fields).
	Server = config.Server
	// Transport is how a server is reached: TransportStdio, or one of the
	// remote transports.
	Transport = config.Transport
	// Sandbox is a local server's sandbox: its network, the folders it
	// may read and write, and what its roots give it.
	Sandbox = config.Sandbox
	// OAuth is a remote server's OAuth client settings.
	OAuth = config.OAuth
	// ValidationError is a server entry that does not validate: its
	// Problems name the field (JSON path) and what to do.
	ValidationError = config.ValidationError
	// Problem is one field of an entry that does not validate.
	Problem = config.Problem
	// InputOption is one choice of a VS Code pickString input.
	InputOption = config.InputOption
	// Input is a VS Code input declaration (${input:ID}): its
	// description, and whether it is a password.
	Input = config.Input
	// MissingInputError is an import of ${input:ID}s that were given no
	// value; IDs names them.
	MissingInputError = config.MissingInputError
	// ImportPlan is what importing a file would do, server by server,
	// before anything is written.
	ImportPlan = config.ImportPlan
	// Resolution is the user's answer for a server whose name is taken:
	// Keep, Replace or Rename.
	Resolution = config.Resolution
	// Outcome is what importing one server would do (Added, Conflicting,
	// Invalid, …).
	Outcome = config.Outcome
)

// What the running servers offer, as Tools lists it.
type (
	// Tool is one tool of a running server under its routed name
	// (server__tool), with its server's name and annotations.
	Tool = router.Tool
	// ServerError is a server whose tools could not be listed, and why.
	ServerError = router.ServerError
)

// Transports, resolutions and outcomes.
const (
	TransportStdio = config.Stdio

	Keep    = config.Keep
	Replace = config.Replace
	Rename  = config.Rename

	Added       = config.Added
	Changed     = config.Changed
	Unchanged   = config.Unchanged
	Conflicting = config.Conflicting
	Invalid     = config.Invalid
)

// A chat's settings, agents and tool rules.
type (
	// ChatSettings is settings.chat in config.json: providers, the
	// default model, the system prompt, tool policies and rules, long
	// chats, sampling. Settings.EditChat changes it.
	ChatSettings = chat.Settings
	// ProviderSettings is one model provider in ChatSettings.
	ProviderSettings = chat.ProviderSettings
	// ChatAgent is an agent: a prompt, a model, servers and policies a
	// chat can run as.
	ChatAgent = chat.Agent
	// ToolPolicy is what happens when the model calls a tool:
	// PolicyAllow, PolicyAsk or PolicyDeny.
	ToolPolicy = chat.Policy
	// ToolPolicies maps server or server__tool to its policy.
	ToolPolicies = chat.Policies
	// Rule is an "always allow calls like this" rule: a tool and matches
	// on its arguments.
	Rule = chat.Rule
	// RuleMatch is one argument a Rule matches.
	RuleMatch = chat.Match
)

// Tool policies, and how a chat offers the tools.
const (
	PolicyAllow = chat.PolicyAllow
	PolicyAsk   = chat.PolicyAsk
	PolicyDeny  = chat.PolicyDeny

	ToolsDirect = chat.ToolsDirect
	ToolsCode   = chat.ToolsCode
	ToolsBoth   = chat.ToolsBoth

	// DefaultCompactAt, DefaultResultShare and DefaultKeepLimit are the
	// long-chat settings' defaults.
	DefaultCompactAt   = chat.DefaultCompactAt
	DefaultResultShare = chat.DefaultResultShare
	DefaultKeepLimit   = chat.DefaultKeepLimit
)

// A turn as it runs: its events, and the questions it asks the user.
type (
	// Turn is one turn of a chat as Chats.Send runs it.
	Turn = chat.Turn
	// TurnResult is how a turn ended: its messages, usage and stop reason.
	TurnResult = chat.Result
	// ChatEvent is one event of a running turn (EventName on the
	// window's event bus), of kind EventText, EventToolCall, ….
	ChatEvent = chat.Event
	// TurnCall is a tool call as a turn's events show it.
	TurnCall = chat.ToolCallView
	// TurnProgress is how far a running tool call is (an EventProgress's).
	TurnProgress = chat.Progress
	// ScriptResult is the structured result of a code-mode script.
	ScriptResult = chat.ScriptResult
	// ChatModel is a model a request goes to: its provider and name.
	ChatModel = chat.Model
	// ChatRequests answers what servers ask during a chat: approvals,
	// forms, sampling. Chats.Wire puts it in place.
	ChatRequests = chat.Requests
	// Approver is asked before a tool call or a sampling request runs;
	// it is called from the turn's goroutine and may block until the
	// user answers or ctx ends.
	Approver = chat.Approver
	// ApprovalRequest is what an Approver is asked.
	ApprovalRequest = chat.ApprovalRequest
	// Decision is an Approver's answer: ApproveOnce, ApproveAlways, Deny.
	Decision = chat.Decision
	// ApproveAll approves every tool call (the CLI's --yes).
	ApproveAll = chat.ApproveAll
	// Elicitor answers a server's form or URL request (elicitation); it
	// may block until the user answers or ctx ends.
	Elicitor = chat.Elicitor
	// ElicitRequest is what an Elicitor is asked.
	ElicitRequest = chat.ElicitRequest
	// ElicitAnswer is an Elicitor's answer.
	ElicitAnswer = chat.ElicitAnswer
	// SamplingRefusal is a sampling request refused without the user's
	// own Deny, for the door to show.
	SamplingRefusal = chat.Refusal
	// Site is the site a URL leads to, as a person should read it.
	Site = chat.Site
)

// A turn's events, calls and approvals.
const (
	EventName       = chat.EventName
	EventText       = chat.EventText
	EventToolCall   = chat.EventToolCall
	EventMessage    = chat.EventMessage
	EventMessageEnd = chat.EventMessageEnd
	EventContext    = chat.EventContext
	EventRetry      = chat.EventRetry
	EventProgress   = chat.EventProgress

	CallRunning   = chat.CallRunning
	CallDone      = chat.CallDone
	CallError     = chat.CallError
	CallDenied    = chat.CallDenied
	CallCancelled = chat.CallCancelled

	ApproveOnce   = chat.ApproveOnce
	ApproveAlways = chat.ApproveAlways
	Deny          = chat.Deny

	// KindSampling is an ApprovalRequest's Kind for a server's sampling
	// request (the other kind is a tool call).
	KindSampling = chat.KindSampling
	// RunScriptName is code mode's tool that runs a script.
	RunScriptName = chat.RunScriptName
	// FromLast retries a chat from its last message.
	FromLast = chat.FromLast
)

// The few checks and defaults of the chat's vocabulary a door needs
// before a host part takes what the user typed: to refuse a flag at once
// or show a default in a form. Each is the chat package's own, read at
// the call (MaxSteps and CodeModeWindow are variables tests shorten).

// ValidToolMode says whether mode is a tool mode ("" is the default).
func ValidToolMode(mode string) error { return chat.ValidToolMode(mode) }

// ProposeRule is the rule "always allow calls like this" starts from:
// the call's exact arguments, for the user to edit.
func ProposeRule(tool string, args json.RawMessage) Rule { return chat.ProposeRule(tool, args) }

// CheckURL parses a URL a server asks the user to open: absolute
// http(s) with a host and no credentials; the error says why not.
func CheckURL(raw string) (*url.URL, error) { return chat.CheckURL(raw) }

// SiteOf is the site u leads to, as a person should read it.
func SiteOf(u *url.URL) Site { return chat.SiteOf(u) }

// DefaultBaseURL is a provider kind's own endpoint ("" when it has none).
func DefaultBaseURL(k ProviderKind) string { return chat.DefaultBaseURL(k) }

// DefaultImages says whether a model takes images when its provider's
// settings do not say.
func DefaultImages(k ProviderKind, baseURL, model string) bool {
	return chat.DefaultImages(k, baseURL, model)
}

// DefaultAudio says whether a model takes audio when its provider's
// settings do not say.
func DefaultAudio(k ProviderKind, baseURL, model string) bool {
	return chat.DefaultAudio(k, baseURL, model)
}

// DefaultMaxSteps is the model steps a turn takes when settings do not say.
func DefaultMaxSteps() int { return chat.MaxSteps }

// CodeModeWindow is the largest context window (tokens) whose model gets
// code mode by default.
func CodeModeWindow() int { return chat.CodeModeWindow }
