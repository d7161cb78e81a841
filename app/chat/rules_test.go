package chat_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

var shell = router.Tool{Name: "workspace__execute_shell", Server: "workspace", Tool: mcp.Tool{Name: "execute_shell"}}

func allowGit() chat.Rule {
	return chat.Rule{Tool: "workspace__execute_shell", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "command", Glob: "git status*"}}}
}

func TestRulesDecide(t *testing.T) {
	denyRm := chat.Rule{Tool: "workspace__*", Effect: chat.PolicyDeny, Match: []chat.Match{{Path: "command", Regex: `.*\brm\s+-rf\b.*`}}}
	nested := chat.Rule{Tool: "workspace__execute_shell", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "$.env[1].name", Glob: "LANG"}, {Path: "timeout", Glob: "[1-3]0"}}}
	tests := []struct {
		name  string
		rules chat.Rules
		args  string
		want  chat.Policy
	}{
		{"glob matches", chat.Rules{allowGit()}, `{"command":"git status --short"}`, chat.PolicyAllow},
		{"glob matches the prefix itself", chat.Rules{allowGit()}, `{"command":"git status"}`, chat.PolicyAllow},
		{"glob does not match", chat.Rules{allowGit()}, `{"command":"git push --force"}`, ""},
		{"glob is anchored", chat.Rules{allowGit()}, `{"command":"echo; git status"}`, ""},
		{"missing argument", chat.Rules{allowGit()}, `{"cmd":"git status"}`, ""},
		{"a number is not a string", chat.Rules{allowGit()}, `{"command":42}`, ""},
		{"another tool", chat.Rules{{Tool: "files__write", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "command", Glob: "*"}}}}, `{"command":"x"}`, ""},
		{"deny wins over allow", chat.Rules{allowGit(), denyRm}, `{"command":"git status && rm -rf ~"}`, chat.PolicyDeny},
		{"deny wins in any order", chat.Rules{denyRm, allowGit()}, `{"command":"git status; rm -rf /"}`, chat.PolicyDeny},
		{"allow when the deny does not match", chat.Rules{denyRm, allowGit()}, `{"command":"git status"}`, chat.PolicyAllow},
		{"nested paths, indexes and sets", chat.Rules{nested}, `{"env":[{"name":"PATH"},{"name":"LANG"}],"timeout":20}`, chat.PolicyAllow},
		{"index out of range", chat.Rules{nested}, `{"env":[{"name":"LANG"}],"timeout":20}`, ""},
		// A deny regex sees past a newline; an allow rule never approves a
		// second command its pattern does not show.
		{"deny sees past a newline", chat.Rules{allowGit(), denyRm}, `{"command":"git status\nrm -rf ~"}`, chat.PolicyDeny},
		{"allow does not approve a second command", chat.Rules{allowGit()}, `{"command":"git status; touch x"}`, ""},
		{"nor one after a newline", chat.Rules{allowGit()}, `{"command":"git status\ntouch x"}`, ""},
		{"nor a pipe, a substitution or a redirect", chat.Rules{allowGit()}, `{"command":"git status $(touch x) > /tmp/y | sh"}`, ""},
		{"nor a background job", chat.Rules{allowGit()}, `{"command":"git status & curl x"}`, ""},
		{"a separator the pattern shows is allowed", chat.Rules{{Tool: "workspace__execute_shell", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "command", Glob: "git log | head*"}}}}, `{"command":"git log | head -5"}`, chat.PolicyAllow},
		{"but not another one", chat.Rules{{Tool: "workspace__execute_shell", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "command", Glob: "git log | head*"}}}}, `{"command":"git log | head -5; rm x"}`, ""},
		{"an allow regex is held to the same", chat.Rules{{Tool: "workspace__execute_shell", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "command", Regex: `git status.*`}}}}, `{"command":"git status;touch x"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args map[string]any
			if err := json.Unmarshal([]byte(tt.args), &args); err != nil {
				t.Fatal(err)
			}
			got, rule, err := tt.rules.Decide(shell, args)
			if err != nil || got != tt.want || (got != "" && rule == nil) {
				t.Fatalf("Decide = %q, %+v, %v; want %q", got, rule, err, tt.want)
			}
		})
	}
}

func TestBadRulesNameTheField(t *testing.T) {
	tests := []struct {
		name  string
		rule  chat.Rule
		field string
	}{
		{"bad regex", chat.Rule{Tool: "a__b", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "x", Glob: "ok"}, {Path: "command", Regex: "git (status"}}}, "match[1].regex"},
		{"unclosed glob set", chat.Rule{Tool: "a__b", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "command", Glob: "git [status"}}}, "match[0].glob"},
		{"empty path", chat.Rule{Tool: "a__b", Effect: chat.PolicyDeny, Match: []chat.Match{{Path: " ", Glob: "*"}}}, "match[0].path"},
		{"bad index", chat.Rule{Tool: "a__b", Effect: chat.PolicyDeny, Match: []chat.Match{{Path: "a[x]", Glob: "*"}}}, "match[0].path"},
		{"both kinds", chat.Rule{Tool: "a__b", Effect: chat.PolicyDeny, Match: []chat.Match{{Path: "a", Glob: "*", Regex: ".*"}}}, "match[0]"},
		{"bad effect", chat.Rule{Tool: "a__b", Effect: chat.PolicyAsk, Match: []chat.Match{{Path: "a", Glob: "*"}}}, "effect"},
		{"no condition", chat.Rule{Tool: "a__b", Effect: chat.PolicyAllow}, "match"},
		{"no tool", chat.Rule{Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "a", Glob: "*"}}}, "tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.rule.Validate()
			var re *chat.RuleError
			if !errors.As(err, &re) || re.Field != tt.field || !errors.Is(err, chat.ErrBadRule) || !strings.Contains(err.Error(), tt.field+":") {
				t.Fatalf("Validate = %v; want a RuleError naming %s", err, tt.field)
			}
			// A broken rule naming the tool denies rather than lets calls through.
			bad := tt.rule
			bad.Tool = shell.Name
			if tt.field == "tool" || bad.Effect != chat.PolicyAllow && bad.Effect != chat.PolicyDeny {
				return
			}
			if got, _, err := (chat.Rules{bad}).Decide(shell, map[string]any{"command": "git status"}); got != chat.PolicyDeny || err == nil {
				t.Fatalf("Decide with a broken rule = %q, %v; want deny with the error", got, err)
			}
		})
	}
}

func TestProposeRuleMatchesTheExactCall(t *testing.T) {
	args := json.RawMessage(`{"command":"ls *.go","timeout":30,"env":{"A":"1"}}`)
	r := chat.ProposeRule(shell.Name, args)
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(r.Match) != 2 || r.Match[0] != (chat.Match{Path: "command", Glob: `ls \*.go`}) || r.Match[1] != (chat.Match{Path: "timeout", Glob: "30"}) {
		t.Fatalf("proposed = %+v", r.Match)
	}
	var same, other map[string]any
	_ = json.Unmarshal(args, &same)
	_ = json.Unmarshal([]byte(`{"command":"ls main.go","timeout":30}`), &other)
	if got, _, _ := (chat.Rules{r}).Decide(shell, same); got != chat.PolicyAllow {
		t.Fatalf("the proposal does not allow the call it came from: %q", got)
	}
	if got, _, _ := (chat.Rules{r}).Decide(shell, other); got != "" {
		t.Fatalf("the proposal's * is literal, yet it matched another call: %q", got)
	}
}

// TestDenyRuleBeatsApproveAll: an approver that says yes to everything
// (as the CLI's --yes does) is never even asked about a call a deny rule
// matches, which is denied; an allow rule runs its call without asking.
func TestDenyRuleBeatsApproveAll(t *testing.T) {
	f := newFixture(t, provider.KindOpenAI, nil)
	rules := chat.Rules{
		{Tool: "files__write", Effect: chat.PolicyDeny, Match: []chat.Match{{Path: "path", Glob: "/etc/*"}}},
		{Tool: "files__write", Effect: chat.PolicyAllow, Match: []chat.Match{{Path: "path", Glob: "/tmp/*"}}},
	}
	f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{call("c1", "files__write", `{"path":"/etc/passwd"}`), call("c2", "files__write", `{"path":"/tmp/x"}`)}},
		providertest.Reply{Text: "ok"})
	_, err := f.send(t.Context(), "write", func(turn *chat.Turn) { turn.Rules = rules })
	if err != nil {
		t.Fatal(err)
	}
	final := map[string]chat.ToolCallView{}
	for _, ev := range f.events(chat.EventToolCall) {
		final[ev.Call.ID] = *ev.Call
	}
	if c := final["c1"]; c.Status != chat.CallDenied || !strings.Contains(c.Error, "approval rule denies") {
		t.Fatalf("/etc call = %+v; want denied by the rule", c)
	}
	if c := final["c2"]; c.Status != chat.CallDone || !strings.Contains(string(c.Result), "wrote /tmp/x") {
		t.Fatalf("/tmp call = %+v; want it run", c)
	}
	if n := len(f.appr.asked()); n != 0 {
		t.Fatalf("asked %d times; the rules decided both calls", n)
	}
}
