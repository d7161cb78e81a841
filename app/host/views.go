package host

import (
	"encoding/json"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/apps"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
	"github.com/switchboard-app/switchboard/mcpmanager/mcpregistry"
	"github.com/switchboard-app/switchboard/mcpmanager/toolcheck"
)

// The types below are what the host's callers see of the engine: the
// window's bound methods return them (so the generated TypeScript names
// them host.*) and the CLI prints them with --json (so both doors show
// one shape). Each has the engine type's fields and JSON names, so
// converting is a copy; an engine type that grows a field does not reach
// a door until it is added here. The XxxView functions make them from
// the engine's values, for a door that still holds one (the window's
// chat events); the host's own methods return them already.

// AppPermissions are the browser permissions an MCP App's UI resource
// asks for (apps.Permissions).
type AppPermissions struct {
	Camera         bool `json:"camera,omitempty"`
	Microphone     bool `json:"microphone,omitempty"`
	Geolocation    bool `json:"geolocation,omitempty"`
	ClipboardWrite bool `json:"clipboardWrite,omitempty"`
}

// PermissionsView is p as the doors see it.
func PermissionsView(p apps.Permissions) AppPermissions { return AppPermissions(p) }

// Agent is a named set-up a chat starts from (ChatAgent): a system
// prompt, a model, the servers (and optionally only some of their tools
// and skills) it may use, approval policies over the global ones, and
// whether each server is an ask_<server> sub-agent.
type Agent struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description string            `json:"description,omitempty"`
	System      string            `json:"system,omitempty"`
	Provider    string            `json:"provider,omitempty"`
	Model       string            `json:"model,omitempty"`
	Servers     []string          `json:"servers"`
	Tools       []string          `json:"tools,omitempty"`
	Skills      []string          `json:"skills,omitempty"`
	Policies    map[string]string `json:"policies,omitempty"` // tool pattern → always, ask or never
	Delegate    bool              `json:"delegate,omitempty"`
	ToolMode    string            `json:"toolMode,omitempty"` // direct, code, both; "" the settings'
	// Missing are the servers it names that are not set up (none built
	// in or in config.json): its chats run without them (Agents.List).
	Missing []string `json:"missing,omitempty"`
	// ProviderMissing: Provider names no provider set up (Settings →
	// Models); its chats fail until it is changed.
	ProviderMissing bool `json:"providerMissing,omitempty"`
}

// AgentFile is an agent file another app keeps (a Claude Code subagent,
// Agents.Find) and the agent an import makes of it.
type AgentFile struct {
	Path   string `json:"path"`
	Source string `json:"source"` // "Claude Code (personal)", "Claude Code (project)" or "file"
	Agent  Agent  `json:"agent"`
	// Notes say what does not carry over (tools with no match here, its
	// model, fields Switchboard does not use), never nil.
	Notes []string `json:"notes"`
	// Problem says why it cannot be imported ("" when it can).
	Problem string `json:"problem,omitempty"`
	// Exists: an agent of its name is set up already; an import skips it.
	Exists bool `json:"exists,omitempty"`
	// Imported is the ID of the agent an import saved ("" when skipped).
	Imported string `json:"imported,omitempty"`
}

// AgentView is a as the doors see it.
func AgentView(a ChatAgent) Agent {
	v := Agent{ID: a.ID, Name: a.Name, Description: a.Description, System: a.System, Provider: a.Provider, Model: a.Model,
		Servers: a.Servers, Tools: a.Tools, Skills: a.Skills, Delegate: a.Delegate, ToolMode: a.ToolMode}
	if a.Policies != nil {
		v.Policies = make(map[string]string, len(a.Policies))
		for k, p := range a.Policies {
			v.Policies[k] = string(p)
		}
	}
	return v
}

// engine is the ChatAgent a is.
func (a Agent) engine() ChatAgent {
	e := ChatAgent{ID: a.ID, Name: a.Name, Description: a.Description, System: a.System, Provider: a.Provider, Model: a.Model,
		Servers: a.Servers, Tools: a.Tools, Skills: a.Skills, Delegate: a.Delegate, ToolMode: a.ToolMode}
	if a.Policies != nil {
		e.Policies = make(chat.Policies, len(a.Policies))
		for k, p := range a.Policies {
			e.Policies[k] = ToolPolicy(p)
		}
	}
	return e
}

// ChatContext is the context meter (chat.ContextView): what the next
// request takes of the model's window, in estimated tokens, and of what.
type ChatContext struct {
	Used       int  `json:"used"`
	Window     int  `json:"window"` // the model's, else the assumed one (Assumed)
	Limit      int  `json:"limit"`  // where compaction starts
	System     int  `json:"system"`
	Tools      int  `json:"tools"`
	History    int  `json:"history"`
	Results    int  `json:"results"`
	Stubbed    int  `json:"stubbed,omitempty"`
	Compacting bool `json:"compacting,omitempty"`
	Calibrated bool `json:"calibrated,omitempty"`
	// Assumed: the model's window is not known; Window is a
	// conservative default (set the real one in Settings → Chat → Long chats → Context windows).
	Assumed bool `json:"assumed,omitempty"`
	// Exact: Used is the provider's own count (its tokenizer).
	Exact bool `json:"exact,omitempty"`
	// TurnStubbed: this turn's own steps whose results (some or all) the
	// model sees as stubs (the turn alone did not fit).
	TurnStubbed int `json:"turnStubbed,omitempty"`
	// TurnStubbedResults: how many of this turn's own results the model
	// sees as stubs.
	TurnStubbedResults int `json:"turnStubbedResults,omitempty"`
}

// ContextView is v as the doors see it (nil stays nil).
func ContextView(v *chat.ContextView) *ChatContext {
	if v == nil {
		return nil
	}
	c := ChatContext(*v)
	return &c
}

// KeptResult is the handle of a tool result kept whole for the model to
// read by pages (chat.Kept).
type KeptResult struct {
	ID      string `json:"id"`
	Lines   int    `json:"lines"`
	Chars   int    `json:"chars"`
	Shown   int    `json:"shown,omitempty"`
	Seen    int    `json:"seen,omitempty"` // characters the model saw, from the start
	Dropped int    `json:"dropped,omitempty"`
}

// keptView is k as the doors see it (nil stays nil).
func keptView(k *chat.Kept) *KeptResult {
	if k == nil {
		return nil
	}
	v := KeptResult(*k)
	return &v
}

// OfferedTool is a tool a server's sampling request offers the model
// (chat.OfferedTool).
type OfferedTool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// OfferedToolsView is ts as the doors see them.
func OfferedToolsView(ts []chat.OfferedTool) []OfferedTool {
	if ts == nil {
		return nil
	}
	out := make([]OfferedTool, len(ts))
	for i, t := range ts {
		out[i] = OfferedTool(t)
	}
	return out
}

// Sampling is the "sampling" part of the chat settings
// (chat.SamplingSettings): ask, allow or deny, and the caps.
type Sampling struct {
	Mode         string `json:"mode,omitempty"`
	PerChat      int    `json:"perChat,omitempty"`
	PerMinute    int    `json:"perMinute,omitempty"`
	OutsideCalls bool   `json:"outsideCalls,omitempty"`
}

// SamplingView is s as the doors see it.
func SamplingView(s chat.SamplingSettings) Sampling { return Sampling(s) }

// TokenUsage is the tokens a message used, when the provider reports
// them (chat.Usage).
type TokenUsage struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
}

// UsageView is u as the doors see it (nil stays nil).
func UsageView(u *chat.Usage) *TokenUsage {
	if u == nil {
		return nil
	}
	v := TokenUsage(*u)
	return &v
}

// ChatHit is one match of a search over the saved chats (history.Hit):
// a message, or a chat by its title (MessageID empty); higher Rank is
// better.
type ChatHit struct {
	ChatID    string  `json:"chatId"`
	Title     string  `json:"title"`
	MessageID string  `json:"messageId"`
	Snippet   string  `json:"snippet"`
	Rank      float64 `json:"rank"`
}

// hitsView is hs as the doors see them (never nil).
func hitsView(hs []history.Hit) []ChatHit {
	out := make([]ChatHit, len(hs))
	for i, h := range hs {
		out[i] = ChatHit(h)
	}
	return out
}

// ProfileOverride is what a profile changes of a server
// (library.Override); Env and Headers are merged over the server's own.
type ProfileOverride struct {
	URL     string            `json:"url,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// overrideView is o as the doors see it.
func overrideView(o library.Override) ProfileOverride { return ProfileOverride(o) }

// engine is the library.Override o is.
func (o ProfileOverride) engine() library.Override { return library.Override(o) }

// TemplateParam is one parameter of a server template, as a form shows
// it (library.Param); Secret values go to the keyring.
type TemplateParam struct {
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Type        string   `json:"type"` // string, integer, number, boolean
	Default     string   `json:"default"`
	Enum        []string `json:"enum"`
	Required    bool     `json:"required"`
	Secret      bool     `json:"secret"`
	Format      string   `json:"format"`
}

// ParamsView is ps as the doors see them (nil stays nil: the CLI prints
// a template without parameters as null).
func ParamsView(ps []library.Param) []TemplateParam {
	if ps == nil {
		return nil
	}
	out := make([]TemplateParam, len(ps))
	for i, p := range ps {
		out[i] = TemplateParam(p)
	}
	return out
}

// TestReport is a test connection of one server (mcpmanager.TestReport),
// as the Servers page and 'servers test --json' show it: times in
// milliseconds, every text passed through the redactor.
type TestReport struct {
	Server     string     `json:"server"`
	OK         bool       `json:"ok"`
	Steps      []TestStep `json:"steps"`
	TotalMs    float64    `json:"totalMs"`
	Transport  string     `json:"transport"`
	ServerName string     `json:"serverName"`
	Version    string     `json:"version"`
	Protocol   string     `json:"protocol"`
	Tools      []string   `json:"tools"`
	ToolCount  int        `json:"toolCount"`
	AppOnly    []string   `json:"appOnly"`
	Duplicates []string   `json:"duplicates"`
	Summary    string     `json:"summary"`
	Failed     string     `json:"failed"`
	Error      string     `json:"error"`
	Stderr     []string   `json:"stderr"`
}

// TestStep is one timed step of a TestReport.
type TestStep struct {
	Name  string  `json:"name"`
	Ms    float64 `json:"ms"`
	Error string  `json:"error"`
}

// reportView is r as the doors see it.
func reportView(r mcpmanager.TestReport) TestReport {
	v := TestReport{Server: r.Server, OK: r.OK, TotalMs: r.TotalMs, Transport: r.Transport, ServerName: r.ServerName,
		Version: r.Version, Protocol: r.Protocol, Tools: r.Tools, ToolCount: r.ToolCount, AppOnly: r.AppOnly,
		Duplicates: r.Duplicates, Summary: r.Summary, Failed: r.Failed, Error: r.Error, Stderr: r.Stderr}
	if r.Steps != nil {
		v.Steps = make([]TestStep, len(r.Steps))
		for i, s := range r.Steps {
			v.Steps[i] = TestStep(s)
		}
	}
	return v
}

// RegistryAsk is a value the user is asked for before a registry server
// is added (mcpregistry.Ask): an env variable, header or URL variable.
type RegistryAsk struct {
	Key         string   `json:"key"`
	Kind        string   `json:"kind"` // env, header or variable
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Secret      bool     `json:"secret"`
	Default     string   `json:"default"`
	Choices     []string `json:"choices"`
}

// asksView is as as the doors see them (never nil).
func asksView(as []mcpregistry.Ask) []RegistryAsk {
	out := make([]RegistryAsk, len(as))
	for i, a := range as {
		out[i] = RegistryAsk(a)
	}
	return out
}

// ProviderModel is one model a provider offers (provider.Model);
// ContextWindow is 0 when the provider does not say.
type ProviderModel struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	ContextWindow int    `json:"contextWindow,omitempty"`
}

// modelsView is ms as the doors see them (never nil).
func modelsView(ms []provider.Model) []ProviderModel {
	out := make([]ProviderModel, len(ms))
	for i, m := range ms {
		out[i] = ProviderModel(m)
	}
	return out
}

// SecretMove is a secret-looking value of an imported server that moves
// (or, in a preview, would move) to the keyring (secrets.Move): where it
// is, the keyring entry it goes to and the value masked. 'servers import
// --json' prints it.
type SecretMove struct {
	Server string `json:"server"`
	Field  string `json:"field"` // env.GITHUB_TOKEN, headers.Authorization, oauth.clientSecret
	Name   string `json:"name"`  // the keyring entry
	Masked string `json:"masked"`
	// Input is the VS Code password input whose value this is: it always
	// goes to the keyring (no opt-out), into every field that uses it.
	Input string `json:"input,omitempty"`
}

// Key identifies the value for opting out of the move (ImportRequest's
// Plaintext, 'servers import --plaintext'): "<server>.<field>".
func (m SecretMove) Key() string { return m.Server + "." + m.Field }

// secretMoves are ms as the doors see them (nil stays nil).
func secretMoves(ms []secrets.Move) []SecretMove {
	if ms == nil {
		return nil
	}
	out := make([]SecretMove, len(ms))
	for i, m := range ms {
		out[i] = SecretMove{Server: m.Server, Field: m.Field, Name: m.Name, Masked: m.Masked, Input: m.Input}
	}
	return out
}

// SecretRow is one keyring secret the config names (secrets.SecretInfo):
// its value masked (••••last4, or "(missing)") and who uses it.
type SecretRow struct {
	Name   string   `json:"name"`
	Masked string   `json:"masked"`
	UsedBy []string `json:"usedBy"`
}

// secretsView is ss as the doors see them (never nil).
func secretsView(ss []secrets.SecretInfo) []SecretRow {
	out := make([]SecretRow, len(ss))
	for i, s := range ss {
		out[i] = SecretRow(s)
	}
	return out
}

// ToolSearch is whether a chat's turns search its tools instead of
// sending every definition, and why in numbers (toolsearch.Decision).
type ToolSearch struct {
	On          bool   `json:"on"`
	By          string `json:"by"` // "size", "count" or "off"
	Tools       int    `json:"tools"`
	Tokens      int    `json:"tokens"`
	Window      int    `json:"window"`
	WindowKnown bool   `json:"windowKnown"`
	Share       int    `json:"share"`
	Above       int    `json:"above"`
	Reason      string `json:"reason"`
}

// ToolSearchView is d as the doors see it.
func ToolSearchView(d toolsearch.Decision) ToolSearch { return ToolSearch(d) }

// LocalSkill is a skill on this computer (a SKILL.md folder) as the
// window and 'switchboard skills' show it (LocalSkills.List).
type LocalSkill struct {
	// Server is the name its folder goes by in the chats, serve and the
	// settings ("skills@claude"); two skills of one name are told apart by it.
	Server      string      `json:"server"`
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Folder      string      `json:"folder"` // the skill's own folder (links resolved)
	Source      string      `json:"source"` // the folder it was found in
	App         string      `json:"app"`    // whose folder that is
	Scope       string      `json:"scope"`  // personal, project, plugin or switchboard
	AlsoIn      []string    `json:"alsoIn,omitempty"`
	Size        int64       `json:"size"`
	Files       []SkillFile `json:"files"`
	// LeftOut are files not offered and why (a link leading out, too big).
	LeftOut []string `json:"leftOut,omitempty"`
	// Findings: what in SKILL.md (or, for a held skill, in its changed
	// files) looks like hidden instructions.
	Findings []SkillFinding `json:"findings,omitempty"`
	// Warnings: what breaks the Agent Skills specification but is loaded
	// anyway, as Claude Code loads it (a name not its folder's, …).
	Warnings []string `json:"warnings,omitempty"`
	// State is "accepted" (offered) or "held" (changed since accepted, or
	// new with findings: withheld until accepted).
	State    string   `json:"state"`
	Changes  []string `json:"changes,omitempty"`
	Previous string   `json:"previous,omitempty"` // the accepted SKILL.md of a held skill
	Current  string   `json:"current,omitempty"`  // its SKILL.md now, for a held skill
	On       bool     `json:"on"`
	Trusted  bool     `json:"trusted"` // in a folder the user marked as their own
	Own      bool     `json:"own"`     // in Switchboard's skills folder (removable)
}

// SkillFile is one file of a local skill.
type SkillFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// SkillFinding is one reason to distrust a skill's text (toolcheck).
type SkillFinding struct {
	Where   string `json:"where"`
	Reason  string `json:"reason"`
	Excerpt string `json:"excerpt"`
}

// SkillFolder is one folder looked in for skills.
type SkillFolder struct {
	Server  string `json:"server"`
	Dir     string `json:"dir"`
	App     string `json:"app"`
	Scope   string `json:"scope"`
	Exists  bool   `json:"exists"`
	Trusted bool   `json:"trusted"`
	Added   bool   `json:"added"` // a project folder the user added
}

// MalformedSkill is a skill folder left out, and why.
type MalformedSkill struct {
	Folder string `json:"folder"`
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// LocalSkillList is every skill on this computer, the folders looked in and
// the malformed ones left out.
type LocalSkillList struct {
	Skills    []LocalSkill     `json:"skills"`
	Malformed []MalformedSkill `json:"malformed"`
	Folders   []SkillFolder    `json:"folders"`
}

// SkillPreview is a skill about to be added (LocalSkills.Preview).
type SkillPreview struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	From        string         `json:"from"`
	Files       []SkillFile    `json:"files"`
	Size        int64          `json:"size"`
	LeftOut     []string       `json:"leftOut,omitempty"`
	Findings    []SkillFinding `json:"findings,omitempty"`
	Warnings    []string       `json:"warnings,omitempty"` // as LocalSkill's
	Frontmatter string         `json:"frontmatter"`        // as JSON
	// Exists: Switchboard's skills folder has one of that name (Add
	// replaces it only when asked).
	Exists bool `json:"exists"`
}

// SharedApp is an app attached to the running Switchboard's shared
// servers (Shared.Attached): its name (from 'serve --client', else its
// clientInfo.name once it made a call; "" before), its 'serve' process,
// since when (RFC 3339) and the tool calls made under its name.
type SharedApp struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"` // as people know it ("Claude Desktop"), for an app 'switchboard clients' knows
	PID   int    `json:"pid"`
	Since string `json:"since"`
	Calls int    `json:"calls"`
}

// ClientApp is an MCP app on this computer as Clients.List shows it.
type ClientApp struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Found: at least one of its files exists.
	Found     bool             `json:"found"`
	Files     []ClientFileView `json:"files"`
	Connected bool             `json:"connected"`
	// OwnServers counts the servers it still runs itself.
	OwnServers int `json:"ownServers"`
	// Running: the app runs now (a change needs a restart).
	Running bool `json:"running"`
	// Broken says why its Switchboard entry cannot start ("" when fine).
	Broken string `json:"broken,omitempty"`
	// Servers are the servers it sees (empty: all).
	Servers []string `json:"servers"`
	// Moved are the servers connect moved from it.
	Moved         []string `json:"moved"`
	LastConnected string   `json:"lastConnected,omitempty"`
	// Calls counts its tool calls through Switchboard: those its serve
	// made standalone and attached (each one routed to a server; a call
	// Switchboard refused is not counted).
	Calls int64 `json:"calls"`
	// Attached counts its serve processes attached to this running
	// Switchboard now.
	Attached int `json:"attached,omitempty"`
}

// ClientFileView is one of an app's files.
type ClientFileView struct {
	Path      string `json:"path"`
	Scope     string `json:"scope"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
	Servers   int    `json:"servers"`
	Connected bool   `json:"connected"`
	Broken    string `json:"broken,omitempty"`
	Problem   string `json:"problem,omitempty"`
}

// ClientChange is what a connect or disconnect changed, or would change.
type ClientChange struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Path    string `json:"path"`
	Scope   string `json:"scope"`
	Command string `json:"command,omitempty"`
	Changed bool   `json:"changed"`
	// Diff is the change to the file, line by line.
	Diff    string   `json:"diff"`
	Backup  string   `json:"backup,omitempty"`
	Moved   []string `json:"moved"`
	Skipped []string `json:"skipped"`
	// Warnings: restart the app, a project file now names a local path,
	// allow rules to update.
	Warnings []string `json:"warnings"`
}

// TurnReply is a finished chat turn as 'switchboard chat --json' prints
// it: the chat, the last answer's text and status, how many model
// requests it took, whether it stopped at the step limit, and every tool
// call of the turn.
type TurnReply struct {
	ChatID    string       `json:"chatId"`
	Text      string       `json:"text"`
	Status    string       `json:"status"`
	Steps     int          `json:"steps"`
	StepLimit bool         `json:"stepLimit"`
	ToolCalls []StoredCall `json:"toolCalls"`
}

// StoredCall is a tool call as the history keeps it (history.ToolCall):
// arguments and result as their JSON.
type StoredCall struct {
	ID         string          `json:"id"`
	MessageID  string          `json:"messageId"`
	Server     string          `json:"server"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	Result     json.RawMessage `json:"result"`
	IsError    bool            `json:"isError"`
	Status     string          `json:"status"`
	StartedAt  time.Time       `json:"startedAt"`
	DurationMs int64           `json:"durationMs"`
	Task       *TaskView       `json:"task,omitempty"`
}

// TurnReplyView is the reply of chat chatID's turn that ended with r.
func TurnReplyView(chatID string, r TurnResult) TurnReply {
	out := TurnReply{ChatID: chatID, Text: r.Message.Text, Status: r.Message.Status, Steps: r.Steps, StepLimit: r.StepLimit}
	if r.ToolCalls != nil {
		out.ToolCalls = make([]StoredCall, len(r.ToolCalls))
	}
	for i, c := range r.ToolCalls {
		out.ToolCalls[i] = StoredCall{ID: c.ID, MessageID: c.MessageID, Server: c.Server, Tool: c.Tool, Arguments: c.Arguments, Result: c.Result,
			IsError: c.IsError, Status: c.Status, StartedAt: c.StartedAt, DurationMs: c.DurationMs}
		if t := c.Task; t != nil {
			out.ToolCalls[i].Task = &TaskView{ID: t.ID, Status: t.Status, Message: t.Message}
		}
	}
	return out
}

// IsSummary says whether a chat event's message is a summary of earlier
// messages (a long chat compacted).
func IsSummary(ev ChatEvent) bool { return ev.Role == history.RoleSummary }

// WarningView is one toolcheck finding: hidden instructions found in a
// tool's definition.
type WarningView struct {
	Kind    string `json:"kind"`
	Reason  string `json:"reason"`
	Where   string `json:"where"`
	Excerpt string `json:"excerpt"` // invisible characters escaped
}

// WarningsView is fs as the doors see them (never nil).
func WarningsView(fs []toolcheck.Finding) []WarningView {
	out := make([]WarningView, 0, len(fs))
	for _, f := range fs {
		out = append(out, WarningView(f))
	}
	return out
}
