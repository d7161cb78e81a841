// Package provider streams chat turns from language models: any
// OpenAI-compatible server (OpenAI, OpenRouter, Groq, vLLM, LM Studio, …),
// Anthropic, through the official SDKs (openai-go and anthropic-sdk-go), and
// Ollama, through its native API (/api/chat, newline-delimited JSON).
//
// It owns everything that differs between the wire formats, so the chat
// engine sees one shape: the system prompt, tool calls and tool results in
// the place each API wants them; tool names mapped reversibly to what the
// APIs accept (ours look like "server__tool.name"); tool-call arguments
// streamed as deltas; stop reasons and usage normalised.
//
// A request's body is written here, for both SDKs, as the SDK would write
// it (its messages and tools; the SDK writes the rest and reads the
// stream), and for Ollama as encoding/json wrote it: every step sends the
// whole conversation and every tool again, and encoding by reflection cost
// more than the rest of a step.
//
// Errors are normalised too, and say what to do: a rejected key wraps
// [ErrAuth], an unknown model [ErrModelNotFound], a stream that broke off
// [ErrIncomplete] (with the partial [Response] beside it), rate limits
// [ErrRateLimited] once [MaxRetries] waits (each announced as an
// [EventRetry]) are used up. The SDKs' own retries are switched off so
// every wait is ours and visible, and can be cut short: a [Wake] on the
// request's context ([WithWake]) retries at once ("Retry now").
//
//	p, err := provider.New(provider.Config{
//		Kind: provider.KindAnthropic, Name: "Claude", APIKey: key,
//	})
//	if err != nil { ... }
//	resp, err := p.Stream(ctx, provider.Request{
//		Model:    "claude-sonnet-4-5",
//		Messages: []provider.Message{{Role: provider.RoleUser, Text: "What is in notes.md?"}},
//		Tools:    []provider.Tool{{Name: "files__read_file", InputSchema: schema}},
//	}, func(ev provider.Event) {
//		if ev.Kind == provider.EventText {
//			fmt.Print(ev.Text)
//		}
//	})
//	switch {
//	case errors.Is(err, provider.ErrIncomplete):
//		// resp holds what arrived before the stream broke
//	case err != nil:
//		return err
//	}
//	for _, c := range resp.ToolCalls { ... } // c.Name is "files__read_file" again
//
// Package providertest is a fake server speaking all three wire formats, for
// tests; testdata/fakellm runs it as a program.
package provider
