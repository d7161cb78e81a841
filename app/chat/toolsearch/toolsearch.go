// Package toolsearch finds tools by what they do. It keeps an in-memory
// bleve index over each tool's name (split into words), server, title,
// description and input schema (parameter names and descriptions), so a
// model facing hundreds of tools can ask for "create a GitHub issue" and get
// the few that fit.
//
//	ix, err := toolsearch.New(tools)
//	defer ix.Close()
//	hits, err := ix.Search("take a screenshot of the page", 5)
//	// hits[0].Name == "playwright__browser_take_screenshot"
//
// An Index is safe for concurrent use; it never changes after New.
package toolsearch

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
)

// ErrEmptyQuery means Search was given nothing to look for.
var ErrEmptyQuery = errors.New("the query is empty: describe what the tool should do, such as \"create a GitHub issue\"")

// Tool is one tool to index.
type Tool struct {
	Name        string // the exposed name, server__tool
	Server      string
	Title       string
	Description string
	InputSchema json.RawMessage
}

// Hit is one search result, best first.
type Hit struct {
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

// Index is a built index.
type Index struct {
	idx bleve.Index
}

// doc is what bleve stores per tool.
type doc struct {
	Words  string `json:"words"`  // the tool's own name, split into words
	Server string `json:"server"` // the server's name, split into words
	Title  string `json:"title"`
	Desc   string `json:"desc"`
	Params string `json:"params"` // parameter names and descriptions
}

// Field weights: a tool's name says most about it, its parameters least.
var boosts = map[string]float64{"words": 3, "title": 2, "desc": 1.2, "server": 1, "params": 0.4}

func indexMapping() mapping.IndexMapping {
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = en.AnalyzerName // stemming: "screenshots" finds "screenshot"
	dm := bleve.NewDocumentMapping()
	for f := range boosts {
		fm := bleve.NewTextFieldMapping()
		fm.Analyzer = en.AnalyzerName
		fm.Store = false
		dm.AddFieldMappingsAt(f, fm)
	}
	m.DefaultMapping = dm
	return m
}

// New indexes tools in memory.
func New(tools []Tool) (*Index, error) {
	idx, err := bleve.NewMemOnly(indexMapping())
	if err != nil {
		return nil, fmt.Errorf("tool search: %w", err)
	}
	b := idx.NewBatch()
	for _, t := range tools {
		tool := t.Name
		if _, after, ok := strings.Cut(t.Name, "__"); ok {
			tool = after
		}
		d := doc{Words: words(tool), Server: words(t.Server), Title: t.Title, Desc: t.Description, Params: params(t.InputSchema)}
		if err := b.Index(t.Name, d); err != nil {
			_ = idx.Close()
			return nil, fmt.Errorf("tool search: index %s: %w", t.Name, err)
		}
	}
	if err := idx.Batch(b); err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("tool search: %w", err)
	}
	return &Index{idx: idx}, nil
}

// Search returns up to limit tools for a natural-language need.
func (ix *Index) Search(q string, limit int) ([]Hit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, ErrEmptyQuery
	}
	if limit <= 0 {
		limit = 5
	}
	var qs []query.Query
	extra := expand(words(q))
	for f, boost := range boosts {
		mq := bleve.NewMatchQuery(words(q))
		mq.SetField(f)
		mq.SetBoost(boost)
		qs = append(qs, mq)
		if extra != "" {
			sq := bleve.NewMatchQuery(extra)
			sq.SetField(f)
			sq.SetBoost(boost * synonymWeight)
			qs = append(qs, sq)
		}
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), limit, 0, false)
	res, err := ix.idx.Search(req)
	if err != nil {
		return nil, fmt.Errorf("tool search: %w", err)
	}
	out := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		out = append(out, Hit{Name: h.ID, Score: h.Score})
	}
	return out, nil
}

// Close releases the index.
func (ix *Index) Close() error { return ix.idx.Close() }

var camel = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// words splits snake_case, kebab-case, dotted and camelCase names into words
// ("browser_takeScreenshot" → "browser take Screenshot"). A camelCase word is
// kept whole as well, so "GitHub" matches both "github" and "git hub".
func words(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r == '/' || unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, s)
	var b strings.Builder
	for _, w := range strings.Fields(s) {
		b.WriteString(w)
		b.WriteByte(' ')
		if split := camel.ReplaceAllString(w, "$1 $2"); split != w {
			b.WriteString(split)
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// synonyms widen a need's verbs and nouns to the words tool authors use
// for them ("run a command" finds "start_process"). Each group is a set of
// near-equivalents; expansions weigh less than the words the model wrote.
var synonyms = [][]string{
	{"run", "execute", "start", "launch", "invoke"},
	{"create", "add", "new", "make"},
	{"delete", "remove", "drop", "destroy"},
	{"find", "search", "query", "lookup", "look"},
	{"get", "read", "fetch", "retrieve", "show", "view"},
	{"update", "edit", "modify", "change", "patch"},
	{"list", "enumerate"},
	{"bug", "issue", "ticket"},
	{"stop", "kill", "terminate", "cancel"},
	{"message", "post", "send"},
	{"folder", "directory"},
	{"terminal", "shell", "command", "process"},
	{"webpage", "page", "site", "website", "url"},
}

// expand returns the synonyms of the query's words that it does not
// already contain.
func expand(q string) string {
	have := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(q)) {
		have[w] = true
	}
	var out []string
	for _, g := range synonyms {
		hit := false
		for _, w := range g {
			hit = hit || have[w]
		}
		if !hit {
			continue
		}
		for _, w := range g {
			if !have[w] && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return strings.Join(out, " ")
}

// synonymWeight is an expansion's weight relative to the model's own words.
const synonymWeight = 0.35

// params flattens an input schema's property names and descriptions
// (nested objects and array items too) into text.
func params(raw json.RawMessage) string {
	var s any
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 4 {
			return
		}
		if d, ok := m["description"].(string); ok {
			b.WriteString(d)
			b.WriteByte(' ')
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for name, p := range props {
				b.WriteString(words(name))
				b.WriteByte(' ')
				walk(p, depth+1)
			}
		}
		walk(m["items"], depth+1)
	}
	walk(s, 0)
	return b.String()
}
