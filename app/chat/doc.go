// Package chat runs conversations between a model and the user's MCP tools:
// the tool loop (stream the model, run the tools it asks for — in parallel,
// after approval — feed the results back, until it answers or a step limit is
// hit), approvals, and the routing of server-initiated requests (sampling,
// elicitation) to the person at the screen.
//
// Models are reached through [provider]; tools through the registry
// (anything with Tools and Call); every message and tool call is persisted
// through a History as it completes, so a crash never loses an acknowledged
// message.
//
//	eng := chat.New(chat.Options{Tools: mgr.Registry(), History: hist, Approver: ui})
//	res, err := eng.Send(ctx, chat.Turn{
//		ChatID:   c.ID,
//		Provider: p, Model: "gpt-4.1-mini",
//		Text:     "What is in notes.md?",
//		OnEvent:  func(ev chat.Event) { runtime.EventsEmit(wctx, chat.EventName, ev) },
//	})
package chat
