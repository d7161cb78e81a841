package toolsearch

import (
	"fmt"
	"math"
)

// When the model first gets find_tools instead of every tool: when the
// tool definitions sent with each request would take more than a share of
// the model's context window. A count of tools was the rule before; it
// cut in far too early for two servers with short definitions (the two
// built-in servers alone have 17 tools) and too late for a few servers
// with huge schemas, so it is kept only as a setting people choose.
const (
	// DefaultShare is the percent of the context window the tool
	// definitions may take before the model searches them instead.
	DefaultShare = 25
	// DefaultWindow is the context window assumed for a model whose window
	// is not known: small on purpose (many local models run with 32k or
	// less), so an unknown model searches early rather than drowning.
	DefaultWindow = 32_000
	// charsPerToken estimates tokens from the JSON text of definitions;
	// tokenizers give 3.5–4.5 characters per token on JSON Schema.
	charsPerToken = 4
	// perToolOverhead is what a provider's request adds around each
	// definition ({"type":"function","function":{…}} and the like).
	perToolOverhead = 40
)

// Rule is the setting: by size (Above 0), by count (Above > 0) or never
// (Above < 0).
type Rule struct {
	// Share is the percent of the window the definitions may take
	// (0: DefaultShare).
	Share int
	// Above, when positive, replaces the size rule: search above this many
	// tools. Below 0: never search.
	Above int
	// MaxTools is the provider's limit on the tools of one request (0:
	// none): above it every rule searches, since the request would be
	// refused whole.
	MaxTools int
}

// Decision is whether a turn searches its tools, and why in numbers.
type Decision struct {
	On     bool   `json:"on"`
	By     string `json:"by"` // "size", "count", "limit" (the provider's) or "off"
	Tools  int    `json:"tools"`
	Tokens int    `json:"tokens"` // estimated tokens of the definitions
	// Window is the model's context window in tokens; WindowKnown is false
	// when it is DefaultWindow standing in for an unknown one.
	Window      int  `json:"window"`
	WindowKnown bool `json:"windowKnown"`
	Share       int  `json:"share"` // percent, for By "size"
	Above       int  `json:"above"` // for By "count" and "limit"
	// Reason says it in one sentence for the person choosing tools.
	Reason string `json:"reason"`
}

// Tokens estimates the tokens one tool definition takes in a request: its
// name, description and input schema as sent, plus the wrapping.
func Tokens(name, description string, schema []byte) int {
	return (len(name)+len(description)+len(schema))/charsPerToken + perToolOverhead/charsPerToken
}

// Decide applies r to tools definitions of tokens estimated tokens, for a
// model with a context window of window tokens (0: unknown).
func Decide(tools, tokens, window int, r Rule) Decision {
	d := Decision{Tools: tools, Tokens: tokens, Window: window, WindowKnown: window > 0, Share: r.Share}
	if !d.WindowKnown {
		d.Window = DefaultWindow
	}
	if d.Share <= 0 || d.Share > 100 {
		d.Share = DefaultShare
	}
	switch {
	case r.MaxTools > 0 && tools > r.MaxTools:
		d.By, d.Above, d.On = "limit", r.MaxTools, true
		d.Reason = fmt.Sprintf("Tool search is on: %s, more than the %d this provider takes in one request; the model finds the ones it needs with find_tools.", plural(tools, "tool"), r.MaxTools)
	case r.Above < 0:
		d.By = "off"
		d.Reason = fmt.Sprintf("Tool search is off in Settings: the model sees all %s (≈ %s tokens).", plural(tools, "tool"), kilo(tokens))
	case r.Above > 0:
		d.By, d.Above, d.On = "count", r.Above, tools > r.Above
		if d.On {
			d.Reason = fmt.Sprintf("Tool search is on: %s, more than the %d set in Settings; the model finds the ones it needs with find_tools.", plural(tools, "tool"), r.Above)
		} else {
			d.Reason = fmt.Sprintf("Tool search is off: %s, not more than the %d set in Settings; the model sees them all.", plural(tools, "tool"), r.Above)
		}
	default:
		d.By = "size"
		d.On = tokens > d.Window*d.Share/100
		whose := fmt.Sprintf("this model's %s context", kilo(d.Window))
		if !d.WindowKnown {
			whose = fmt.Sprintf("the %s context assumed for a model whose window is not known", kilo(d.Window))
		}
		if d.On {
			d.Reason = fmt.Sprintf("Tool search is on: %s ≈ %s tokens, more than %s of %s; the model finds the ones it needs with find_tools.", plural(tools, "tool"), kilo(tokens), share(d.Share), whose)
		} else {
			d.Reason = fmt.Sprintf("Tool search is off: %s ≈ %s tokens, within %s of %s; the model sees them all.", plural(tools, "tool"), kilo(tokens), share(d.Share), whose)
		}
	}
	return d
}

// share says a percent in words where there are words for it.
func share(p int) string {
	switch p {
	case 25:
		return "a quarter"
	case 50:
		return "half"
	case 100:
		return "all"
	}
	return fmt.Sprintf("%d%%", p)
}

// kilo writes a token count as people read them: 850, 7.5k, 41k, 128k.
func kilo(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10_000:
		k := math.Round(float64(n)/100) / 10
		if k == math.Trunc(k) {
			return fmt.Sprintf("%.0fk", k)
		}
		return fmt.Sprintf("%.1fk", k)
	}
	return fmt.Sprintf("%dk", int(math.Round(float64(n)/1000)))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
