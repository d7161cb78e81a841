package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-app/switchboard/app/chat"
	"github.com/switchboard-app/switchboard/app/chat/provider"
	"github.com/switchboard-app/switchboard/app/chat/provider/providertest"
	"github.com/switchboard-app/switchboard/app/history"
	"github.com/switchboard-app/switchboard/mcpmanager"
	"github.com/switchboard-app/switchboard/mcpmanager/proctest"
	"github.com/switchboard-app/switchboard/mcpmanager/router"
)

// task is one multi-step task against real npm servers, done twice by a
// scripted model: with direct tool calls (direct: the steps, then answer
// reads the final result out of the last tool result the model got) and
// with one script (script returns the final result). answer reads the
// direct run's final result out of the tool results the model got.
type task struct {
	name   string
	direct [][]providertest.ToolCall
	answer func(t *testing.T, calls []history.ToolCall) any
	script string
}

// taskServers are the suite's pinned npm servers, started once for all
// its runs: memory (its file in a temp dir) and filesystem (confined to
// dir). Each run empties both and writes the tasks' fixture again (tasks),
// so every run starts from the same state: server-memory reads its file at
// each call and server-filesystem reads the folder live. (Two servers
// started for each of 20 runs were most of the suite's 46 s.)
type taskServers struct {
	dir, memory string
	tools       *router.Router
}

func newTaskServers(t *testing.T) *taskServers {
	t.Helper()
	s := &taskServers{dir: t.TempDir(), memory: filepath.Join(t.TempDir(), "memory.jsonl")}
	m := mcpmanager.New(mcpmanager.Options{})
	m.Apply([]mcpmanager.ServerConfig{
		{Name: "memory", Command: proctest.NPM(t, "mcp-server-memory"), Env: map[string]string{"MEMORY_FILE_PATH": s.memory}},
		{Name: "files", Command: proctest.NPM(t, "mcp-server-filesystem"), Args: []string{s.dir}},
	})
	t.Cleanup(func() { m.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	m.WaitSettled(ctx)
	s.tools = m.Router()
	return s
}

// tasks empties the servers' folder and memory and returns the tasks, their
// fixture written anew.
func (s *taskServers) tasks(t *testing.T) []task {
	t.Helper()
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := os.RemoveAll(filepath.Join(s.dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(s.memory); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return codeModeTasks(t, s.dir)
}

func jsonArgs(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// graphFrom reads a memory graph out of a read_graph result as the model saw it.
func graphFrom(t *testing.T, text string) (entities []string, related map[string]bool) {
	t.Helper()
	var g struct {
		Entities []struct {
			Name string `json:"name"`
		} `json:"entities"`
		Relations []struct {
			From string `json:"from"`
			To   string `json:"to"`
		} `json:"relations"`
	}
	if err := json.Unmarshal([]byte(text), &g); err != nil {
		t.Fatalf("read_graph's result is not a graph: %v: %.300s", err, text)
	}
	related = map[string]bool{}
	for _, r := range g.Relations {
		related[r.From], related[r.To] = true, true
	}
	for _, e := range g.Entities {
		entities = append(entities, e.Name)
	}
	return entities, related
}

func codeModeTasks(t *testing.T, dir string) []task {
	var ents []map[string]any
	var rels []map[string]any
	for i := range 20 {
		ents = append(ents, map[string]any{"name": fmt.Sprintf("person%02d", i), "entityType": "person", "observations": []string{fmt.Sprintf("age %d", 20+i)}})
		if i%3 == 0 && i+1 < 20 {
			rels = append(rels, map[string]any{"from": fmt.Sprintf("person%02d", i), "to": fmt.Sprintf("person%02d", i+1), "relationType": "knows"})
		}
	}
	var names []string
	for i := range 30 {
		name := fmt.Sprintf("order%02d.json", i)
		names = append(names, filepath.Join(dir, name))
		if err := os.WriteFile(filepath.Join(dir, name), fmt.Appendf(nil, `{"id": %d, "amount": %d, "note": "%s"}`, i, 10+i, strings.Repeat("padding ", 40)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var reads []providertest.ToolCall
	for i, n := range names {
		reads = append(reads, call(fmt.Sprintf("r%d", i), "files__read_text_file", jsonArgs(map[string]string{"path": n})))
	}
	for d := range 5 { // a nested tree of 30 files
		sub := filepath.Join(dir, "tree", fmt.Sprintf("d%d", d), "inner")
		if err := os.MkdirAll(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		for f := range 6 {
			at := filepath.Join(filepath.Dir(sub), fmt.Sprintf("f%d.txt", f))
			if f%2 == 1 {
				at = filepath.Join(sub, fmt.Sprintf("f%d.txt", f))
			}
			if err := os.WriteFile(at, []byte(strings.Repeat("x", 10*(f+1))), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "notes"), 0o700); err != nil {
		t.Fatal(err)
	}
	var infos, writes []providertest.ToolCall
	for i, n := range names {
		infos = append(infos, call(fmt.Sprintf("i%d", i), "files__get_file_info", jsonArgs(map[string]string{"path": n})))
	}
	for i := range 10 {
		writes = append(writes, call(fmt.Sprintf("w%d", i), "files__write_file", jsonArgs(map[string]string{"path": filepath.Join(dir, "notes", fmt.Sprintf("note%d.txt", i)), "content": fmt.Sprintf("note %d", i)})))
	}
	var personNames, everyOther []string
	var obs []map[string]any
	for i := range 20 {
		personNames = append(personNames, fmt.Sprintf("person%02d", i))
		if i%2 == 0 {
			everyOther = append(everyOther, fmt.Sprintf("person%02d", i))
			obs = append(obs, map[string]any{"entityName": fmt.Sprintf("person%02d", i), "contents": []string{"likes tea"}})
		}
	}
	graph := `
const text = (r) => r.text !== undefined ? r.text : JSON.stringify(r);
const g = JSON.parse(text(await tools.memory.read_graph({})));
const related = new Set();
for (const r of g.relations) { related.add(r.from); related.add(r.to); }
`
	return []task{
		{
			name: "20 entities with relations: which have none",
			direct: [][]providertest.ToolCall{
				{call("c1", "memory__create_entities", jsonArgs(map[string]any{"entities": ents}))},
				{call("c2", "memory__create_relations", jsonArgs(map[string]any{"relations": rels}))},
				{call("c3", "memory__read_graph", `{}`)},
			},
			answer: func(t *testing.T, calls []history.ToolCall) any {
				all, related := graphFrom(t, lastText(t, calls[len(calls)-1]))
				var lonely []string
				for _, e := range all {
					if !related[e] {
						lonely = append(lonely, e)
					}
				}
				return lonely
			},
			script: fmt.Sprintf(`await tools.memory.create_entities({entities: %s});
await tools.memory.create_relations({relations: %s});
%s
return g.entities.map(e => e.name).filter(n => !related.has(n));`, jsonArgs(ents), jsonArgs(rels), graph),
		},
		{
			name:   "read 30 files and total a field",
			direct: [][]providertest.ToolCall{reads},
			answer: totalOf,
			script: fmt.Sprintf(`let total = 0;
for (const p of %s) {
  const r = await tools.files.read_text_file({path: p});
  total += JSON.parse(r.content !== undefined ? r.content : r.text).amount;
}
return total;`, jsonArgs(names)),
		},
		{
			name:   "list a directory and count its JSON files",
			direct: [][]providertest.ToolCall{{call("l1", "files__list_directory", jsonArgs(map[string]string{"path": dir}))}},
			answer: func(t *testing.T, calls []history.ToolCall) any {
				return float64(strings.Count(lastText(t, calls[0]), ".json"))
			},
			script: fmt.Sprintf(`const r = await tools.files.list_directory({path: %s});
return (r.content !== undefined ? r.content : r.text).split("\n").filter(l => l.includes(".json")).length;`, jsonArgs(dir)),
		},
		{
			name: "create 20 people and search for those in their thirties",
			direct: [][]providertest.ToolCall{
				{call("c1", "memory__create_entities", jsonArgs(map[string]any{"entities": ents}))},
				{call("c2", "memory__search_nodes", `{"query":"age 3"}`)},
			},
			answer: func(t *testing.T, calls []history.ToolCall) any {
				found, _ := graphFrom(t, lastText(t, calls[len(calls)-1]))
				return found
			},
			script: fmt.Sprintf(`await tools.memory.create_entities({entities: %s});
const r = await tools.memory.search_nodes({query: "age 3"});
const g = r.text !== undefined ? JSON.parse(r.text) : r;
return g.entities.map(e => e.name).sort();`, jsonArgs(ents)),
		},
		{
			name:   "read 30 files in one call and find the largest amount",
			direct: [][]providertest.ToolCall{{call("m1", "files__read_multiple_files", jsonArgs(map[string]any{"paths": names}))}},
			answer: func(t *testing.T, calls []history.ToolCall) any { return maxAmount(t, lastText(t, calls[0])) },
			script: fmt.Sprintf(`const r = await tools.files.read_multiple_files({paths: %s});
let max = 0;
for (const part of r.content.split("\n---\n")) max = Math.max(max, JSON.parse(part.slice(part.indexOf("\n") + 1)).amount);
return max;`, jsonArgs(names)),
		},
		{
			name:   "total the sizes of 30 files (one get_file_info each)",
			direct: [][]providertest.ToolCall{infos},
			answer: func(t *testing.T, calls []history.ToolCall) any {
				total := 0.0
				for _, c := range calls {
					total += sizeOf(t, lastText(t, c))
				}
				return total
			},
			script: fmt.Sprintf(`let total = 0;
for (const p of %s) {
  const r = await tools.files.get_file_info({path: p});
  total += Number(/^size: (\d+)/m.exec(r.content)[1]);
}
return total;`, jsonArgs(names)),
		},
		{
			name:   "count the files of a nested directory tree",
			direct: [][]providertest.ToolCall{{call("t1", "files__directory_tree", jsonArgs(map[string]string{"path": filepath.Join(dir, "tree")}))}},
			answer: func(t *testing.T, calls []history.ToolCall) any {
				var tree []treeNode
				if err := json.Unmarshal([]byte(lastText(t, calls[0])), &tree); err != nil {
					t.Fatal(err)
				}
				return float64(countFiles(tree))
			},
			script: fmt.Sprintf(`const r = await tools.files.directory_tree({path: %s});
const count = (nodes) => nodes.reduce((n, e) => n + (e.type === "file" ? 1 : count(e.children || [])), 0);
return count(JSON.parse(r.content));`, jsonArgs(filepath.Join(dir, "tree"))),
		},
		{
			name: "add an observation to every other person and count all observations",
			direct: [][]providertest.ToolCall{
				{call("c1", "memory__create_entities", jsonArgs(map[string]any{"entities": ents}))},
				{call("c2", "memory__add_observations", jsonArgs(map[string]any{"observations": obs}))},
				{call("c3", "memory__open_nodes", jsonArgs(map[string]any{"names": personNames}))},
			},
			answer: func(t *testing.T, calls []history.ToolCall) any {
				return float64(observationsIn(t, lastText(t, calls[len(calls)-1])))
			},
			script: fmt.Sprintf(`await tools.memory.create_entities({entities: %s});
await tools.memory.add_observations({observations: %s});
const r = await tools.memory.open_nodes({names: %s});
const g = r.text !== undefined ? JSON.parse(r.text) : r;
return g.entities.reduce((n, e) => n + e.observations.length, 0);`, jsonArgs(ents), jsonArgs(obs), jsonArgs(personNames)),
		},
		{
			name: "delete every other person and list who remains",
			direct: [][]providertest.ToolCall{
				{call("c1", "memory__create_entities", jsonArgs(map[string]any{"entities": ents}))},
				{call("c2", "memory__delete_entities", jsonArgs(map[string]any{"entityNames": everyOther}))},
				{call("c3", "memory__read_graph", `{}`)},
			},
			answer: func(t *testing.T, calls []history.ToolCall) any {
				left, _ := graphFrom(t, lastText(t, calls[len(calls)-1]))
				return left
			},
			script: fmt.Sprintf(`await tools.memory.create_entities({entities: %s});
await tools.memory.delete_entities({entityNames: %s});
%s
return g.entities.map(e => e.name).sort();`, jsonArgs(ents), jsonArgs(everyOther), graph),
		},
		{
			name: "write 10 notes, then list the folder and count them",
			direct: [][]providertest.ToolCall{
				writes,
				{call("l1", "files__list_directory", jsonArgs(map[string]string{"path": filepath.Join(dir, "notes")}))},
			},
			answer: func(t *testing.T, calls []history.ToolCall) any {
				return float64(strings.Count(lastText(t, calls[len(calls)-1]), ".txt"))
			},
			script: fmt.Sprintf(`for (let i = 0; i < 10; i++) await tools.files.write_file({path: %s + "/note" + i + ".txt", content: "note " + i});
const r = await tools.files.list_directory({path: %s});
return r.content.split("\n").filter(l => l.includes(".txt")).length;`, jsonArgs(filepath.Join(dir, "notes")), jsonArgs(filepath.Join(dir, "notes"))),
		},
	}
}

// maxAmount is the largest amount among read_multiple_files' files.
func maxAmount(t *testing.T, text string) float64 {
	t.Helper()
	best := 0.0
	for part := range strings.SplitSeq(text, "\n---\n") {
		_, body, _ := strings.Cut(part, "\n")
		var o struct{ Amount float64 }
		if err := json.Unmarshal([]byte(body), &o); err != nil {
			t.Fatalf("%.200s: %v", part, err)
		}
		best = max(best, o.Amount)
	}
	return best
}

// sizeOf reads "size: N" out of get_file_info's text.
func sizeOf(t *testing.T, text string) float64 {
	t.Helper()
	for line := range strings.SplitSeq(text, "\n") {
		if v, ok := strings.CutPrefix(line, "size: "); ok {
			var n float64
			if _, err := fmt.Sscan(v, &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no size in %q", text)
	return 0
}

type treeNode struct {
	Type     string     `json:"type"`
	Children []treeNode `json:"children"`
}

func countFiles(nodes []treeNode) int {
	n := 0
	for _, e := range nodes {
		if e.Type == "file" {
			n++
		}
		n += countFiles(e.Children)
	}
	return n
}

// observationsIn counts the observations of the entities in an open_nodes result.
func observationsIn(t *testing.T, text string) int {
	t.Helper()
	var g struct {
		Entities []struct {
			Observations []string `json:"observations"`
		} `json:"entities"`
	}
	if err := json.Unmarshal([]byte(text), &g); err != nil {
		t.Fatalf("%.300s: %v", text, err)
	}
	n := 0
	for _, e := range g.Entities {
		n += len(e.Observations)
	}
	return n
}

// tokensOf is the size of the requests the model was sent, in tokens
// (4 bytes each, as the engine estimates).
func tokensOf(reqs []json.RawMessage) int {
	n := 0
	for _, r := range reqs {
		n += len(r) / 4
	}
	return n
}

// runTask runs task i of the suite in mode against fresh npm servers: its
// final result, the tokens sent to the model and the turn's wall time.
func runTask(t *testing.T, srv *taskServers, i int, mode string) (result any, tokens int, took time.Duration) {
	t.Helper()
	tk := srv.tasks(t)[i]
	f := newFixture(t, provider.KindOpenAI, nil)
	f.eng = chat.New(chat.Options{Tools: srv.tools, History: f.hist, Approver: chat.ApproveAll{}})
	if mode == chat.ToolsDirect {
		for _, step := range tk.direct {
			f.llm.Enqueue(providertest.Reply{ToolCalls: step})
		}
	} else {
		f.llm.Enqueue(providertest.Reply{ToolCalls: []providertest.ToolCall{script("s1", tk.script)}})
	}
	f.llm.Enqueue(providertest.Reply{Text: "Done."})
	start := time.Now()
	res, err := f.send(t.Context(), "do the task", func(tu *chat.Turn) { tu.Tools = mode; tu.MaxSteps = 40 })
	took = time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	tokens = tokensOf(f.llm.Requests())
	if mode == chat.ToolsCode {
		return scriptValue(t, res.ToolCalls[0]), tokens, took
	}
	return roundTrip(t, tk.answer(t, res.ToolCalls)), tokens, took
}

// TestTaskSuiteDirectAndCodeModeAgree runs each task in direct mode and in
// code mode against the real npm servers: the same final result, and code
// mode sends the model fewer tokens.
func TestTaskSuiteDirectAndCodeModeAgree(t *testing.T) {
	srv := newTaskServers(t)
	tasks := srv.tasks(t)
	if len(tasks) < 10 {
		t.Fatalf("%d tasks, want at least 10", len(tasks))
	}
	for i, tk := range tasks {
		t.Run(tk.name, func(t *testing.T) {
			results := map[string]any{}
			tokens := map[string]int{}
			for _, mode := range []string{chat.ToolsDirect, chat.ToolsCode} {
				results[mode], tokens[mode], _ = runTask(t, srv, i, mode)
			}
			if got := fmt.Sprint(results[chat.ToolsDirect]); got == "[]" || got == "0" || got == "<nil>" {
				t.Errorf("the task found nothing: %s", got)
			}
			if fmt.Sprint(results[chat.ToolsDirect]) != fmt.Sprint(results[chat.ToolsCode]) {
				t.Errorf("direct: %v\ncode:   %v", results[chat.ToolsDirect], results[chat.ToolsCode])
			}
			t.Logf("tokens sent to the model: direct %d, code %d (%.2f×)", tokens[chat.ToolsDirect], tokens[chat.ToolsCode], float64(tokens[chat.ToolsCode])/float64(tokens[chat.ToolsDirect]))
			if tokens[chat.ToolsCode] >= tokens[chat.ToolsDirect] {
				t.Errorf("code mode sent %d tokens, direct %d", tokens[chat.ToolsCode], tokens[chat.ToolsDirect])
			}
		})
	}
}

func lastText(t *testing.T, c history.ToolCall) string {
	t.Helper()
	var r mcp.CallToolResult
	if err := json.Unmarshal(c.Result, &r); err != nil || c.IsError {
		t.Fatalf("call %s: %s (%v)", c.Tool, c.Result, err)
	}
	for _, p := range r.Content {
		if tc, ok := p.(mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// totalOf adds up the amount of each file the calls read.
func totalOf(t *testing.T, calls []history.ToolCall) any {
	total := 0.0
	for _, c := range calls {
		var o struct{ Amount float64 }
		if err := json.Unmarshal([]byte(lastText(t, c)), &o); err != nil {
			t.Fatalf("%s: %v", c.Tool, err)
		}
		total += o.Amount
	}
	return total
}

func scriptValue(t *testing.T, c history.ToolCall) any {
	t.Helper()
	var r struct {
		StructuredContent chat.ScriptResult `json:"structuredContent"`
	}
	if err := json.Unmarshal(c.Result, &r); err != nil || r.StructuredContent.Error != "" || c.IsError {
		t.Fatalf("the script: %s (%v)", c.Result, err)
	}
	var v any
	if err := json.Unmarshal(r.StructuredContent.Value, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// roundTrip is v as JSON decodes it, to compare with a script's value.
func roundTrip(t *testing.T, v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	if s, ok := out.([]any); ok {
		slices.SortFunc(s, func(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	}
	return out
}
