package provider

import "strings"

// knownWindows are the context windows (input tokens) of model families
// whose providers do not list them (OpenAI's /v1/models says nothing of
// it), longest prefix first within a family. Conservative: where versions
// of a family differ, the smaller window.
var knownWindows = []family{
	{"gpt-3.5", 16_000},
	{"gpt-4o", 128_000},
	{"gpt-4.1", 1_000_000},
	{"gpt-4-turbo", 128_000},
	{"gpt-4", 8_000},
	{"gpt-5", 272_000},
	{"o1", 128_000},
	{"o3", 200_000},
	{"o4", 200_000},
	{"claude", 200_000},
	{"gemini", 1_000_000},
	{"llama3.1", 128_000},
	{"llama3.2", 128_000},
	{"llama3.3", 128_000},
	{"mistral-large", 128_000},
	{"qwen2.5", 32_000},
	{"qwen3", 32_000},
}

// KnownContextWindow is the context window of model's family when it is
// known here, else 0. A path or tag in the name ("openai/gpt-4o",
// "llama3.1:8b") does not matter.
func KnownContextWindow(model string) int { return lookupFamily(knownWindows, model) }

// family is a model family's number (a window, an output limit) by the
// prefix of its models' names.
type family struct {
	prefix string
	n      int
}

// lookupFamily is the number of the longest prefix in list that model's
// name (without a path: "openai/gpt-4o") starts with, else 0.
func lookupFamily(list []family, model string) int {
	m := strings.ToLower(model)
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	best, n := 0, 0
	for _, k := range list {
		if strings.HasPrefix(m, k.prefix) && len(k.prefix) > best {
			best, n = len(k.prefix), k.n
		}
	}
	return n
}
