package chat

import (
	"context"
	"encoding/json"

	"github.com/switchboard-app/switchboard/mcpmanager/router"
	"github.com/switchboard-app/switchboard/mcpmanager/toolcheck"
)

// Policy says whether a tool may run without asking.
type Policy string

// Policies, as stored in settings.
const (
	PolicyAsk   Policy = "ask"
	PolicyAllow Policy = "allow"
	PolicyDeny  Policy = "deny"
)

// Decision is the user's answer to an approval request.
type Decision string

// Decisions.
const (
	ApproveOnce   Decision = "once"   // run this call
	ApproveAlways Decision = "always" // run this and later calls of the tool in this chat
	Deny          Decision = "deny"
)

// Approval kinds.
const (
	KindTool     = "tool"     // a model's tool call
	KindSampling = "sampling" // a server asks the model something (sampling/createMessage)
)

// ApprovalRequest is shown to the user with the exact arguments.
type ApprovalRequest struct {
	ID     string `json:"id"`
	ChatID string `json:"chatId"`
	Kind   string `json:"kind"`
	Server string `json:"server"`
	Tool   string `json:"tool"` // exposed name (server__tool); empty for sampling
	// Arguments is the exact JSON the tool will receive (or the sampling request).
	Arguments json.RawMessage `json:"arguments"`
	// Destructive is the tool's destructiveHint (or our own risk rule).
	Destructive bool `json:"destructive"`
	// Warnings are what toolcheck found in the tool's definition (hidden
	// instructions), shown again where the user decides.
	Warnings []toolcheck.Finding `json:"warnings,omitempty"`
	// Tools are the tools a sampling request offers the model.
	Tools []OfferedTool `json:"tools,omitempty"`
	// App is the ui:// URI of the server's MCP App when the app, not the
	// server, made the sampling request.
	App string `json:"app,omitempty"`
	// Parent is the call (run_script or ask_<server>) this call is part
	// of, and Script the script that makes it (code mode).
	Parent string `json:"parent,omitempty"`
	Script string `json:"script,omitempty"`
	// Specialist is the server whose specialist (ask_<server>) makes this
	// call, so the card says who asks: not the model the user talks to.
	Specialist string `json:"specialist,omitempty"`
}

// Approver asks the user. Approve blocks until the user answers or ctx is
// done (then it returns ctx's error). It is called concurrently, once per
// pending call, from the goroutines running a turn's tool calls.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Decision, error)
}

// ApproveAll is an Approver that allows every tool call (the CLI's
// --yes). It denies sampling requests: a yes to tools is not a yes to
// servers spending the user's model (Requests decides those).
type ApproveAll struct{}

// Approve implements Approver.
func (ApproveAll) Approve(_ context.Context, req ApprovalRequest) (Decision, error) {
	if req.Kind == KindSampling {
		return Deny, nil
	}
	return ApproveOnce, nil
}

var _ Approver = ApproveAll{}

// DefaultPolicy is the policy for a tool no setting names: read-only tools
// (MCP readOnlyHint) run, everything else asks — MCP's own default for an
// unannotated tool is "may be destructive".
func DefaultPolicy(t router.Tool) Policy {
	if h := t.Tool.Annotations.ReadOnlyHint; h != nil && *h {
		return PolicyAllow
	}
	return PolicyAsk
}

// Policies maps tool names to policies. A key is an exposed tool name
// ("files__write_file") or a configured server name with a wildcard
// ("files__*"); the exact name wins.
type Policies map[string]Policy

// For returns the policy for t, falling back to def. It reads t's own
// exposed name (unique in the router) and t's own server, the ones the
// call will go to.
func (p Policies) For(t router.Tool, def func(router.Tool) Policy) Policy {
	if pol, ok := p[t.Name]; ok && pol != "" {
		return pol
	}
	if pol, ok := p[t.Server+router.Separator+"*"]; ok && pol != "" {
		return pol
	}
	if def == nil {
		def = DefaultPolicy
	}
	return def(t)
}

// destructive reports whether t may change things (MCP's default when the
// tool says nothing).
func destructive(t router.Tool) bool {
	a := t.Tool.Annotations
	if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
		return false
	}
	return a.DestructiveHint == nil || *a.DestructiveHint
}

// Verdict is what Decide says to do with a tool call.
type Verdict int

// Verdicts.
const (
	Run    Verdict = iota // run it without asking
	Ask                   // ask the user first (an ApprovalRequest)
	Refuse                // do not run it: Ruling.Why says which setting
)

// Ruling is Decide's answer: the verdict, and for Refuse the sentence
// that says why (for the model, which should not retry, and the user).
type Ruling struct {
	Verdict Verdict
	Why     string
}

// Decide is the one decision on a tool call before it runs, for the
// model's calls and for an MCP App's alike: the user's argument rules
// first (an error in a rule refuses, a deny rule wins, an allow rule
// runs), then the tool's policy (def for a tool no setting names), where
// "ask" runs without asking once the user allowed the tool for the rest
// of the chat (allowedAlways).
func Decide(t router.Tool, args map[string]any, rules Rules, policies Policies, def func(router.Tool) Policy, allowedAlways bool) Ruling {
	ruled, rule, err := rules.Decide(t, args)
	pol := policies.For(t, def)
	switch {
	case err != nil:
		return Ruling{Refuse, "The call was not run: " + err.Error()}
	case ruled == PolicyDeny:
		return Ruling{Refuse, "The user's approval rule denies this call (" + rule.Describe() + "). Do not retry it; ask the user what to do instead."}
	case pol == PolicyDeny:
		return Ruling{Refuse, "The user's settings do not allow this tool."}
	case ruled == PolicyAllow:
		return Ruling{Verdict: Run}
	case pol == PolicyAsk && !allowedAlways:
		return Ruling{Verdict: Ask}
	}
	return Ruling{Verdict: Run}
}

// NewApprovalRequest is the card that asks about calling t with args
// (JSON) in chatID: what counts as destructive (MCP's default for a tool
// that does not say), and the hidden instructions toolcheck finds in its
// definition.
func NewApprovalRequest(chatID string, t router.Tool, args json.RawMessage) ApprovalRequest {
	return ApprovalRequest{ID: newID(), ChatID: chatID, Kind: KindTool, Server: t.Server, Tool: t.Name,
		Arguments: args, Destructive: destructive(t), Warnings: toolcheck.Check(t.Tool)}
}
