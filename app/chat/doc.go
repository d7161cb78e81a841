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
// See Example for one turn with a tool call, from the model's request to the
// stored answer.
package chat
