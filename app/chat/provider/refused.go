package provider

import (
	"regexp"
	"strconv"
)

// A provider that refuses one tool's definition (a schema the translation
// could not make acceptable) fails every request of the chat. Its error
// names the tool by its place in the request or its wire name; refusedTool
// finds which of the request's tools that is, so the user is told which
// tool to turn off rather than only that the request was refused.
var (
	// Anthropic: "tools.3.custom.input_schema: ..."
	anthropicToolAt = regexp.MustCompile(`\btools\.(\d+)\.`)
	// Gemini: "... at 'tools[0].function_declarations[3].parameters...'"
	geminiToolAt = regexp.MustCompile(`tools\[(\d+)\]\.function_declarations\[(\d+)\]`)
	// OpenAI: "Invalid schema for function 'files__read': ..."
	openAIToolNamed = regexp.MustCompile(`(?i)\bfunction '([A-Za-z0-9_-]+)'`)
	// OpenAI-compatible servers: "... tools[3] ..." or "tools.3"
	toolAt = regexp.MustCompile(`\btools\[(\d+)\]`)
)

// refusedTool is the tool of req that a refusal's message names; ok is
// false when it names none.
func refusedTool(req Request, names *toolNames, message string) (Tool, bool) {
	at := func(s string) (Tool, bool) {
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 || i >= len(req.Tools) {
			return Tool{}, false
		}
		return req.Tools[i], true
	}
	if m := geminiToolAt.FindStringSubmatch(message); m != nil {
		// One declaration list per tool, or all in the first.
		if m[1] != "0" {
			return at(m[1])
		}
		return at(m[2])
	}
	if m := openAIToolNamed.FindStringSubmatch(message); m != nil {
		ours := names.toOurs(m[1])
		for _, t := range req.Tools {
			if t.Name == ours {
				return t, true
			}
		}
	}
	if m := anthropicToolAt.FindStringSubmatch(message); m != nil {
		return at(m[1])
	}
	if m := toolAt.FindStringSubmatch(message); m != nil {
		return at(m[1])
	}
	return Tool{}, false
}
