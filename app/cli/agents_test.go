package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/host"
)

// runWith runs switchboard with --data-dir dir and stdin.
func runWith(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(t.Context(), append([]string{"--data-dir", dir}, args...), Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(stdin)})
	return code, out.String(), errb.String()
}

// agentsConfig writes config.json with the servers alpha and beta, the
// fake model as the provider Fake, and these agents.
func agentsConfig(t *testing.T, dir, llmURL, agents string) {
	t.Helper()
	cfg := `{"mcpServers":{"alpha":{"command":"alpha-mcp","disabled":true},"beta":{"command":"beta-mcp","disabled":true}},"settings":{"chat":{
		"providers":[{"name":"Fake","kind":"openai","baseUrl":"` + llmURL + `","defaultModel":"fake-default"}],"agents":` + agents + `}}}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// 'switchboard agents' adds, lists, shows, edits (only the flags given),
// duplicates and removes agents, and says what an agent names that is not
// set up.
func TestAgentsCommand(t *testing.T) {
	dir := t.TempDir()
	agentsConfig(t, dir, "http://127.0.0.1:1/v1", `[]`)
	if code, out, _ := runIn(t, dir, "agents"); code != 0 || !strings.Contains(out, "no agents yet") {
		t.Fatalf("empty list: %d %q", code, out)
	}
	code, out, errOut := runWith(t, dir, "You review.\n", "agents", "add", "Reviewer", "--description", "reads diffs", "--system-file", "-",
		"--servers", "alpha,nosuch", "--tools", "alpha__diff", "--policy", "alpha__*=allow", "--delegate", "--tool-mode", "code")
	if code != 0 || !strings.Contains(out, "saved agent Reviewer") || !strings.Contains(errOut, "agent Reviewer names servers that are not set up: nosuch") ||
		!strings.Contains(errOut, `do not use its tool mode "code"`) {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	code, out, _ = runIn(t, dir, "agents", "list")
	if code != 0 || !strings.Contains(out, "Reviewer") || !strings.Contains(out, "alpha, nosuch (not set up)") || !strings.Contains(out, "delegate") {
		t.Fatalf("list: %d %q", code, out)
	}
	// An edit changes only what its flags say; a server taken out takes its tools and policies along.
	if code, _, e := runIn(t, dir, "agents", "edit", "reviewer", "--policy", "nosuch__*=deny", "--tools", "alpha__diff,nosuch__x"); code != 0 {
		t.Fatalf("edit: %d %s", code, e)
	}
	if code, _, e := runIn(t, dir, "agents", "edit", "reviewer", "--servers", "alpha", "--delegate=false", "--tool-mode", ""); code != 0 {
		t.Fatalf("edit: %d %s", code, e)
	}
	code, out, _ = runIn(t, dir, "--json", "agents", "show", "Reviewer")
	var a host.Agent
	if err := json.Unmarshal([]byte(out), &a); code != 0 || err != nil {
		t.Fatalf("show: %d %v %q", code, err, out)
	}
	if a.System != "You review." || a.Description != "reads diffs" || strings.Join(a.Servers, ",") != "alpha" || a.Delegate || a.ToolMode != "" ||
		a.Policies["alpha__*"] != "allow" || len(a.Policies) != 1 || strings.Join(a.Tools, ",") != "alpha__diff" || len(a.Missing) != 0 {
		t.Fatalf("after the edit: %+v", a)
	}
	// What show --json prints, add --file reads.
	file := filepath.Join(t.TempDir(), "a.json")
	if err := os.WriteFile(file, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, e := runIn(t, dir, "agents", "add", "--file", file); code != ExitUsage || !strings.Contains(e, `an agent named "Reviewer" already exists`) {
		t.Fatalf("add --file of a taken name: %d %s", code, e)
	}
	if code, _, e := runIn(t, dir, "agents", "add", "Second", "--file", file); code != 0 {
		t.Fatalf("add --file: %d %s", code, e)
	}
	if code, out, _ := runIn(t, dir, "agents", "duplicate", "Reviewer"); code != 0 || !strings.Contains(out, "saved agent Reviewer copy") {
		t.Fatalf("duplicate: %d %q", code, out)
	}
	if code, _, e := runIn(t, dir, "agents", "add", "bad\u202ename"); code != ExitUsage || !strings.Contains(e, "U+202E") {
		t.Fatalf("a bidi name: %d %s", code, e)
	}
	if code, out, _ := runIn(t, dir, "agents", "remove", "Second"); code != 0 || !strings.Contains(out, "removed agent Second") {
		t.Fatalf("remove: %d %q", code, out)
	}
	code, out, _ = runIn(t, dir, "--json", "agents")
	var list []host.Agent
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 2 {
		t.Fatalf("list --json: %d %v %q", code, err, out)
	}

	// Removing a server says which agents used it, and takes it out of them.
	code, out, _ = runIn(t, dir, "servers", "remove", "alpha")
	if code != 0 || !strings.Contains(out, "removed from the agents that used it: Reviewer, Reviewer copy") {
		t.Fatalf("servers remove: %d %q", code, out)
	}
	if _, out, _ := runIn(t, dir, "agents", "list"); !strings.Contains(out, "(no tools)") || strings.Contains(out, "alpha") {
		t.Fatalf("after the server's removal: %q", out)
	}
}

// 'agents import' reads Claude Code's agent files (here a folder named on
// the command line), --dry-run changing nothing, and says what does not
// carry over.
func TestAgentsImport(t *testing.T) {
	dir := t.TempDir()
	agentsConfig(t, dir, "http://127.0.0.1:1/v1", `[]`)
	src := t.TempDir()
	md := "---\nname: code-reviewer\ndescription: Reviews changes.\ntools: Read, Grep, WebFetch, mcp__alpha__diff\nmodel: sonnet\n---\n\nYou review code.\n"
	if err := os.WriteFile(filepath.Join(src, "code-reviewer.md"), []byte(md), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runIn(t, dir, "agents", "import", "--dry-run", src)
	if code != 0 || !strings.Contains(out, "would import") || !strings.Contains(out, "WebFetch is Claude Code's own") || !strings.Contains(out, `model "sonnet"`) {
		t.Fatalf("dry run: %d %q %s", code, out, errOut)
	}
	if _, out, _ := runIn(t, dir, "agents"); !strings.Contains(out, "no agents yet") {
		t.Fatalf("the dry run imported: %q", out)
	}
	if code, out, _ := runIn(t, dir, "agents", "import", src); code != 0 || !strings.Contains(out, "imported") {
		t.Fatalf("import: %d %q", code, out)
	}
	code, out, _ = runIn(t, dir, "--json", "agents", "show", "code-reviewer")
	var a host.Agent
	if err := json.Unmarshal([]byte(out), &a); code != 0 || err != nil || a.System != "You review code." ||
		strings.Join(a.Servers, ",") != "workspace,alpha" || strings.Join(a.Tools, ",") != "workspace__read_file,workspace__search_files,alpha__diff" {
		t.Fatalf("imported agent: %d %v %+v", code, err, a)
	}
	if code, out, _ := runIn(t, dir, "agents", "import", src); code != 0 || !strings.Contains(out, "an agent of this name exists") {
		t.Fatalf("imported twice: %d %q", code, out)
	}
}

// 'chat --agent' with a --provider of one's own uses that provider's
// default model (not the agent's, which belongs to its provider); without
// one, an agent whose provider is gone fails naming the agent. The servers
// it names that are not set up, and a tool mode a delegating agent does
// not use, are said on stderr.
func TestChatAgentProviderAndNotes(t *testing.T) {
	llm := providertest.NewServer(t)
	dir := t.TempDir()
	agentsConfig(t, dir, llm.URL(provider.KindOpenAI), `[{"id":"g1","name":"Ghost","servers":["nosuch"],"provider":"Removed","model":"gone"},
		{"id":"d1","name":"Deleg","servers":["alpha"],"delegate":true}]`)
	llm.Enqueue(providertest.Reply{Text: "hello"})
	code, out, errOut := runChat(t, dir, "", "--agent", "ghost", "--provider", "Fake", "hi")
	if code != 0 || strings.TrimSpace(out) != "hello" {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
	if !strings.Contains(errOut, "agent Ghost names servers that are not set up: nosuch") {
		t.Errorf("no note of the missing server: %s", errOut)
	}
	var req struct{ Model string }
	if err := json.Unmarshal(llm.Requests()[0], &req); err != nil || req.Model != "fake-default" {
		t.Fatalf("model %q (%v): the agent's model went to another provider", req.Model, err)
	}
	code, _, errOut = runChat(t, dir, "", "--agent", "ghost", "hi")
	if code == 0 || !strings.Contains(errOut, `agent "Ghost" uses the provider "Removed", which is not set up`) {
		t.Fatalf("a gone provider: %d %s", code, errOut)
	}
	llm.Enqueue(providertest.Reply{Text: "ok"})
	code, _, errOut = runChat(t, dir, "", "--agent", "deleg", "--provider", "Fake", "--tools", "code", "hi")
	if code != 0 || !strings.Contains(errOut, `agent Deleg delegates (one ask_<server> specialist per server), so tool mode "code" does not apply`) {
		t.Fatalf("--tools with a delegating agent: %d %s", code, errOut)
	}
}

// A chat continued with --chat goes on with its agent; once the agent is
// deleted, it says so and goes on with the default set-up.
func TestChatOfADeletedAgentSaysSo(t *testing.T) {
	llm := providertest.NewServer(t)
	dir := t.TempDir()
	agentsConfig(t, dir, llm.URL(provider.KindOpenAI), `[{"id":"r1","name":"Researcher","system":"RESEARCH-PROMPT","servers":[]}]`)
	llm.Enqueue(providertest.Reply{Text: "one"}, providertest.Reply{Text: "two"}, providertest.Reply{Text: "three"})
	code, _, errOut := runChat(t, dir, "", "--agent", "Researcher", "--provider", "Fake", "first")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	id := chatIDOf(t, errOut)
	if code, _, errOut = runChat(t, dir, "", "--chat", id, "--provider", "Fake", "second"); code != 0 || !strings.Contains(string(llm.Requests()[1]), "RESEARCH-PROMPT") {
		t.Fatalf("continued without its agent: %d %s", code, errOut)
	}
	if code, _, e := runIn(t, dir, "agents", "remove", "Researcher"); code != 0 {
		t.Fatalf("remove: %s", e)
	}
	code, _, errOut = runChat(t, dir, "", "--chat", id, "--provider", "Fake", "third")
	if code != 0 || !strings.Contains(errOut, "this chat's agent was deleted: it goes on with the default set-up") || strings.Contains(string(llm.Requests()[2]), "RESEARCH-PROMPT") {
		t.Fatalf("deleted agent: %d %s", code, errOut)
	}
}

// chatIDOf is the chat ID 'switchboard chat' said it saved.
func chatIDOf(t *testing.T, stderr string) string {
	t.Helper()
	_, rest, ok := strings.Cut(stderr, "saved as chat ")
	if !ok {
		t.Fatalf("no chat ID in %q", stderr)
	}
	id, _, _ := strings.Cut(rest, " ")
	return id
}

// An agent naming tools its servers do not list (a typo, a tool renamed
// since) is said on stderr once the servers run: a server narrowed only to
// such tools gives the chat none of its tools, and a deny on one denies
// nothing. The tools it names rightly are not listed.
func TestChatNamesToolsItsServersDoNotOffer(t *testing.T) {
	llm := providertest.NewServer(t)
	dir := t.TempDir()
	agentsConfig(t, dir, llm.URL(provider.KindOpenAI), `[{"id":"l1","name":"Librarian","servers":["content-store"],
		"tools":["content-store__listStore","content-store__search"],"policies":{"content-store__deleteStor":"deny","content-store__*":"ask","content-store__search":"allow"}}]`)
	llm.Enqueue(providertest.Reply{Text: "ok"})
	code, out, errOut := runChat(t, dir, "", "--agent", "librarian", "--provider", "Fake", "hi")
	if code != 0 || strings.TrimSpace(out) != "ok" {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
	want := "agent Librarian names tools its servers do not offer: content-store__listStore, content-store__deleteStor;"
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "'switchboard agents edit Librarian --tools …'") {
		t.Fatalf("stderr should say %q and how to fix it:\n%s", want, errOut)
	}
	if req := string(llm.Requests()[0]); !strings.Contains(req, `"content-store__search"`) || strings.Contains(req, "content-store__listStores") {
		t.Fatalf("the agent's tools are not narrowed as it says: %s", req)
	}
}
