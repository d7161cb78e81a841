package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/toolsearch"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager/plain"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// ToolSearchThreshold is the tool count Settings offers for the count rule
// (toolsearch.Rule.Above): past a few dozen tools, models pick worse. By
// default the size of the definitions decides instead (toolsearch.Decide).
var ToolSearchThreshold = 40

// FindToolsName is the tool search's tool name.
const FindToolsName = "find_tools"

// askPrefix starts the name of a delegate tool: ask_<server>.
const askPrefix = "ask_"

// synthetic is a tool the engine answers itself.
type synthetic struct {
	kind   string // "find", "ask", "skill" or "result"
	server string // for "ask"
}

// synthFor returns the synthetic tool called name, if it is one. A
// sub-agent has none: it sees only its server's tools.
func (r *run) synthFor(name string, sub *subAgent) (synthetic, bool) {
	if sub != nil {
		return synthetic{}, false
	}
	s, ok := r.synth[name]
	return s, ok
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// offer is the tool list for the next model step.
func (r *run) offer(ctx context.Context) ([]provider.Tool, error) {
	switch mode := r.t.ToolMode(); {
	case r.t.Delegate:
		return r.offerSkills(ctx, r.offerDelegates()), nil
	case mode != ToolsDirect && len(r.all) == 0:
		// No server tools: no functions for a script either.
	case mode == ToolsCode:
		return r.offerSkills(ctx, codeTools{r}.offer(nil)), nil
	case mode == ToolsBoth:
		return r.offerSkills(ctx, codeTools{r}.offer(slices.Clone(r.all))), nil
	case r.searching || r.searchOn():
		// Once the model has searched, it goes on searching for the rest
		// of the turn, though tools added or removed since (tools0) would
		// tip the rule the other way: the tools it found stay attached,
		// and the new ones are in find_tools' index.
		tools, err := r.offerSearch(ctx)
		return r.offerSkills(ctx, tools), err
	}
	return r.offerSkills(ctx, r.all), nil // load_skill, when the turn has skills (skills.go)
}

func (r *run) searchOn() bool { return r.searchDecision().On }

// searchDecision applies the turn's tool search rule to its active tools
// and its model's context window.
func (r *run) searchDecision() toolsearch.Decision {
	return toolsearch.Decide(len(r.all), r.set.tokens, r.t.ContextWindow, toolsearch.Rule{Share: r.t.SearchShare, Above: r.t.SearchAbove, MaxTools: provider.MaxTools(r.t.Provider)})
}

// ToolSearch says whether turn t would search its tools, and why: the
// active tools as its first step would list them (a server that fails to
// list only loses its tools). Delegate turns never search.
func (e *Engine) ToolSearch(ctx context.Context, t Turn) (toolsearch.Decision, error) {
	r := &run{e: e, t: t}
	if err := r.tools0(ctx); err != nil {
		return toolsearch.Decision{}, err
	}
	d := r.searchDecision()
	if t.Delegate {
		d.On, d.By = false, "delegate"
		d.Reason = "The agent delegates: the model sees one ask_<server> tool per server, and each specialist sees only its server's tools."
	}
	return d, nil
}

// servers groups the active tools by server, servers in the tools' order
// (the tool set's: read them, never change them).
func (r *run) servers() (names []string, tools map[string][]provider.Tool) {
	return r.set.servers, r.set.byServer
}

// offerDelegates makes one ask_<server> tool per server.
func (r *run) offerDelegates() []provider.Tool {
	names, byServer := r.servers()
	var out []provider.Tool
	for _, s := range names {
		name := askPrefix + unsafeName.ReplaceAllString(s, "_")
		// "my.server" and "my server" both make ask_my_server: number the later ones.
		for i := 2; r.synth[name].server != "" && r.synth[name].server != s; i++ {
			name = fmt.Sprintf("%s%s_%d", askPrefix, unsafeName.ReplaceAllString(s, "_"), i)
		}
		r.synth[name] = synthetic{kind: "ask", server: s}
		r.tools[name] = router.Tool{Name: name, Server: s, Tool: mcp.Tool{Name: name}}
		var tools []string
		for _, pt := range byServer[s] {
			t, _ := r.tool(pt.Name)
			tools = append(tools, t.Tool.Name)
		}
		out = append(out, provider.Tool{
			Name: name,
			Description: fmt.Sprintf("Ask a specialist that can use the %d tools of the %q server (%s) to do a task or find something out; it answers in text. "+
				"Say exactly what you need in query, and give in context anything from the conversation it needs (it does not see the chat).",
				len(tools), s, strings.Join(tools, ", ")),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"the task or question for the specialist"},"context":{"type":"string","description":"facts from the conversation the specialist needs (names, IDs, earlier results)"}},"required":["query"]}`),
		})
	}
	return out
}

// offerSearch is find_tools, the pinned tools and the tools found so far.
func (r *run) offerSearch(ctx context.Context) ([]provider.Tool, error) {
	names, byServer := r.servers()
	var list []string
	for _, s := range names {
		list = append(list, fmt.Sprintf("%s (%d)", s, len(byServer[s])))
	}
	r.searching = true
	r.synth[FindToolsName] = synthetic{kind: "find"}
	r.tools[FindToolsName] = router.Tool{Name: FindToolsName, Tool: mcp.Tool{Name: FindToolsName}}
	out := []provider.Tool{{
		Name: FindToolsName,
		Description: fmt.Sprintf("Find the tools you need among %d tools from these servers: %s. You see only the tools found so far: "+
			"describe what you want to do (\"create a GitHub issue\", \"take a screenshot of the page\") and the best matches are attached to your next step.",
			len(r.all), strings.Join(list, ", ")),
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"what the tool should do, in a few words"},"limit":{"type":"integer","description":"how many tools to attach (default 5, at most 10)"}},"required":["query"]}`),
	}}
	found := r.e.foundTools(r.t.ChatID)
	for _, pt := range r.all {
		if slices.Contains(r.t.Pinned, pt.Name) || slices.Contains(found, pt.Name) {
			out = append(out, pt)
		}
	}
	return out, ctx.Err()
}

func (e *Engine) foundTools(chatID string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.found[chatID])
}

func (e *Engine) addFound(chatID string, names []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, n := range names {
		if !slices.Contains(e.found[chatID], n) {
			e.found[chatID] = append(e.found[chatID], n)
		}
	}
}

// toolIndex caches the find_tools index of one tool set.
type toolIndex struct {
	key string
	ix  *toolsearch.Index
}

// searchIndex returns the index over the run's active tools, built once per
// distinct tool set.
func (r *run) searchIndex() (*toolsearch.Index, error) {
	key := r.set.indexKey
	r.e.mu.Lock()
	defer r.e.mu.Unlock()
	if r.e.index.ix != nil && r.e.index.key == key {
		return r.e.index.ix, nil
	}
	ix, err := toolsearch.New(r.set.searchDocs())
	if err != nil {
		return nil, err
	}
	if r.e.index.ix != nil {
		_ = r.e.index.ix.Close()
	}
	r.e.index = toolIndex{key: key, ix: ix}
	return ix, nil
}

// runSynthetic answers find_tools or runs an ask_<server> sub-agent.
func (r *run) runSynthetic(ctx context.Context, msg history.Message, syn synthetic, callID string, params map[string]any) (*mcp.CallToolResult, error) {
	switch syn.kind {
	case "cm-list", "cm-describe", "cm-run":
		return codeTools{r}.answer(ctx, msg, syn.kind, callID, params)
	case "skill":
		return r.loadSkill(ctx, params)
	case "result":
		return keptOf(r).readResult(ctx, params)
	}
	query, _ := params["query"].(string)
	if strings.TrimSpace(query) == "" {
		return mcp.NewToolResultError(`"query" is required: say what you need in a few words.`), nil
	}
	if syn.kind == "find" {
		return r.findTools(query, params)
	}
	extra, _ := params["context"].(string)
	return r.delegate(ctx, msg, syn.server, callID, query, extra)
}

// findTools searches the index and attaches what it finds to the next step.
func (r *run) findTools(query string, params map[string]any) (*mcp.CallToolResult, error) {
	most := cmp.Or(r.t.SearchLimit, 10)
	limit := min(5, most)
	if n, ok := params["limit"].(float64); ok && n >= 1 {
		limit = min(int(n), most)
	}
	ix, err := r.searchIndex()
	if err != nil {
		return nil, err
	}
	hits, err := ix.Search(query, limit)
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	if len(hits) == 0 {
		return mcp.NewToolResultText(fmt.Sprintf("No tool matches %q. Try other words, or tell the user no tool can do it.", query)), nil
	}
	var b strings.Builder
	var names []string
	type found struct {
		Name        string  `json:"name"`
		Server      string  `json:"server"`
		Description string  `json:"description"`
		Score       float64 `json:"score"`
	}
	var list []found
	fmt.Fprintf(&b, "These %d tools are now available; call the one that fits:\n", len(hits))
	for _, h := range hits {
		t, _ := r.tool(h.Name)
		names = append(names, h.Name)
		desc := firstLine(t.Tool.Description)
		fmt.Fprintf(&b, "- %s: %s\n", h.Name, desc)
		list = append(list, found{Name: h.Name, Server: t.Server, Description: desc, Score: h.Score})
	}
	r.e.addFound(r.t.ChatID, names)
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(b.String())}, StructuredContent: map[string]any{"tools": list}}, nil
}

func firstLine(s string) string {
	return plain.FirstLine(s, 160)
}

// subAgent is an ask_<server> call or a script (run_script) in progress.
type subAgent struct {
	parent string                 // the ask_<server> or run_script call's ID
	script string                 // the script, for run_script
	server string                 // the specialist's server, for ask_<server>
	tools  map[string]router.Tool // only the server's tools
	steps  []Step                 // its calls run one at a time, so no lock
}

// Step is one tool call a sub-agent made, as kept in the ask_<server>
// call's structured result.
type Step struct {
	Tool       string          `json:"tool"`
	Server     string          `json:"server"`
	Arguments  json.RawMessage `json:"arguments"`
	Result     string          `json:"result"`
	IsError    bool            `json:"isError,omitempty"`
	DurationMs int64           `json:"durationMs"`
	// Status is how the call ended (CallDone, CallError, CallDenied,
	// CallCancelled); "" in results stored before it was kept: done, or
	// error when IsError.
	Status string `json:"status,omitempty"`
}

// Delegation is an ask_<server> call's structured result: the
// specialist's answer and every call it made. A delegation that ended
// early (Stop, the specialist's model failing) keeps the calls made so far,
// with Error saying how it ended: the calls that ran may have changed
// something, and the parent model and the user must see which.
type Delegation struct {
	Answer string `json:"answer,omitempty"`
	Server string `json:"server"`
	Steps  []Step `json:"steps"`
	Error  string `json:"error,omitempty"`
}

// endedWith is d ended early with text (partial).
func (d Delegation) endedWith(text string) any {
	d.Error = text
	return d
}

// partial is the structured result of a synthetic call that can end
// early with the work done so far: the call's stored result keeps it,
// with the sentence it ended with (engine.go's call).
type partial interface {
	endedWith(text string) any
}

// stepResultBudget caps what a step keeps of its result for the UI.
const stepResultBudget = 4000

// record keeps a finished call as a step.
func (s *subAgent) record(hc history.ToolCall) {
	text := string(hc.Result)
	var res mcp.CallToolResult
	if json.Unmarshal(hc.Result, &res) == nil {
		text = resultText(&res)
	}
	s.steps = append(s.steps, Step{Tool: hc.Tool, Server: hc.Server, Arguments: hc.Arguments, Result: truncate(text, stepResultBudget), IsError: hc.IsError,
		DurationMs: hc.DurationMs, Status: hc.Status})
}

// stepArgsBudget caps the arguments a summary line quotes of a step.
const stepArgsBudget = 200

// sofar is a delegation that ended early with err, as a result keeping the
// specialist's calls so far: its text lists them for the parent model,
// which would otherwise take the whole delegation for undone and may do
// again what already ran. The engine puts how it ended first (call).
func (s *subAgent) sofar(server string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{mcp.NewTextContent(s.callsSoFar("the " + server + " specialist"))}, StructuredContent: Delegation{Server: server, Steps: s.steps}}
}

// callsSoFar tells the parent model which calls who (a specialist, the
// script) made before it ended early, and that those done may have changed
// something.
func (s *subAgent) callsSoFar(who string) string {
	var b strings.Builder
	if len(s.steps) == 0 {
		fmt.Fprintf(&b, "%s had made no tool calls yet.", upperFirst(who))
		return b.String()
	}
	fmt.Fprintf(&b, "Before that, %s made %d tool %s:\n", who, len(s.steps), plural(len(s.steps), "call", "calls"))
	for _, st := range s.steps {
		fmt.Fprintf(&b, "- %s %s: %s\n", st.Tool, truncate(string(st.Arguments), stepArgsBudget), cmp.Or(st.Status, CallDone))
	}
	b.WriteString("A call marked done ran and may have changed something: check its effect before doing it again.")
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// delegate runs a sub-agent with only server's tools until it answers.
func (r *run) delegate(ctx context.Context, msg history.Message, server, parent, query, extra string) (*mcp.CallToolResult, error) {
	sub := &subAgent{parent: parent, server: server, tools: map[string]router.Tool{}, steps: []Step{}}
	_, byServer := r.servers()
	tools := byServer[server]
	var list strings.Builder
	for _, pt := range tools {
		sub.tools[pt.Name], _ = r.tool(pt.Name)
		fmt.Fprintf(&list, "- %s: %s\n", pt.Name, firstLine(pt.Description))
	}
	system := fmt.Sprintf("You are a specialist working for the user's assistant, with the tools of the MCP server %q and nothing else:\n%s\n"+
		"Do what the request asks using these tools, then answer with what you found or did: complete, short, in plain text. "+
		"The assistant reads your answer, not the user. If the tools cannot do it, say so.", server, list.String())
	if inst := strings.TrimSpace(r.t.System); inst != "" {
		// The agent's prompt is the user's word on how the work is done
		// (what to avoid, which language, house rules): the specialist
		// does the work, so it gets it too, marked as the assistant's.
		system += "\n\nThe assistant you work for follows these instructions from the user. Follow those that bear on your task " +
			"(how to work, what to avoid, the language to answer in); leave aside those about delegating or talking to the user:\n<instructions>\n" +
			inst + "\n</instructions>"
	}
	text := query
	if strings.TrimSpace(extra) != "" {
		text += "\n\nContext:\n" + extra
	}
	msgs := []provider.Message{{Role: provider.RoleUser, Text: text}}
	limit := r.t.MaxSteps
	for step := 1; ; step++ {
		resp, err := r.t.Provider.Stream(ctx, provider.Request{Model: r.t.Model, System: system, Messages: msgs, Tools: tools}, func(provider.Event) {})
		if err != nil {
			// The calls made so far are kept (call stores them with how it ended).
			return sub.sofar(server), fmt.Errorf("the %s specialist's model request failed: %w", server, err)
		}
		if len(resp.ToolCalls) == 0 || step > limit {
			answer := strings.TrimSpace(resp.Text)
			if len(resp.ToolCalls) > 0 {
				answer = strings.TrimSpace(answer + fmt.Sprintf("\n\n(The %s specialist stopped after %d steps without finishing.)", server, limit))
			}
			if answer == "" {
				answer = fmt.Sprintf("The %s specialist gave no answer.", server)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(answer)}, StructuredContent: Delegation{Answer: answer, Server: server, Steps: sub.steps}}, nil
		}
		ensureIDs(resp.ToolCalls)
		am := provider.Message{Role: provider.RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls}
		msgs = append(msgs, am)
		// One at a time, in the model's order: the nested steps read as a
		// sequence under the card.
		for i, c := range resp.ToolCalls {
			c.ID = parent + "/" + c.ID // unique in the chat's event stream
			hc := r.call(ctx, context.WithoutCancel(ctx), msg, i, c, sub)
			hc.ID = resp.ToolCalls[i].ID
			msgs = append(msgs, toolMessage(hc, r.budgetFor(hc.Tool), media{images: r.t.Images, audio: r.t.Audio}))
		}
		if ctx.Err() != nil {
			return sub.sofar(server), ctx.Err()
		}
	}
}
