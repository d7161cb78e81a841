package provider

// knownOutputs are the most tokens one answer of a model family may take,
// where the providers do not list it. Conservative: where versions of a
// family differ, the smaller limit (a longer prefix names the larger ones).
var knownOutputs = []family{
	{"gpt-3.5", 4_096},
	{"gpt-4", 8_192},
	{"gpt-4-turbo", 4_096},
	{"gpt-4o", 16_384},
	{"gpt-4.1", 32_768},
	{"gpt-5", 128_000},
	{"o1", 32_768},
	{"o3", 100_000},
	{"o4", 100_000},
	{"claude", 4_096},
	{"claude-3-5", 8_192},
	{"claude-3-7", 64_000},
	{"claude-sonnet-4", 64_000},
	{"claude-opus-4", 32_000},
	{"gemini", 8_192},
}

// KnownMaxOutput is the output limit (tokens per answer) of model's family
// when it is known here, else 0. A path or tag in the name
// ("openai/gpt-4o", "llama3.1:8b") does not matter.
func KnownMaxOutput(model string) int { return lookupFamily(knownOutputs, model) }
