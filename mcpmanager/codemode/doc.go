// Package codemode runs a model's JavaScript against MCP tools: code mode.
//
// Instead of one round trip through the model per tool call, the model
// writes one short script that calls the tools and returns what it needs;
// only the script, its printed lines and its return value reach the
// model's context. A script is the body of an async function (it may
// await at its top level and return its result). Each tool is an async
// function, tools.server.tool(args), with brackets for names a JavaScript
// identifier cannot hold: tools["my-server"]["get.item"](args); a name a
// server's object lacks throws why when called, and a tool named "then"
// is not one (await would take its object for a promise). It resolves
// to what the caller's CallFunc answers (Value: the tool's structured
// output when it declares an output schema, else {text, parts}); an error
// the CallFunc returns (a denied call, a tool error) is thrown in the
// script, which may catch it; a call's promise rejected and never awaited
// nor caught ends the script with its error when the script ends, as in
// Node, so a write that failed does not pass as done. console.log's lines
// are captured. A script the model wrapped in a Markdown fence (```js …
// ```) runs without it, its lines counted as written. The mistakes models
// make most — a server that does not exist, a dashed name written with
// dots, a call's promise used without await — end with the engine's error
// and what to write instead (hints.go).
//
// The engine is goja, pure Go, inside the app's own binary: no Node or
// Python is needed. A script has the language and nothing else: no file
// system, network, process or timers. Each script runs in a child process
// — this binary again, which calls MaybeChild first thing — that talks
// JSON lines over its stdin and stdout, so its memory limit is the
// operating system's: setrlimit on Unix (limit_unix.go), a Job Object on
// Windows (limit_windows.go). Limits bounds wall time, the time the
// script computes, memory, tool calls, the arguments its calls send, and
// what it returns and prints; each ends the script with a *LimitError
// whose one sentence names the limit and its setting (and, for the CPU
// time, the line the script was running). A script that throws or does
// not compile ends with a *ScriptError naming the line.
// Stopping the context stops the child in stages (stdin closed, then
// killed after StopGrace).
//
// The wall time counts from the start to the end, tool calls included,
// but not a call's wait for a person (PauseWall: an approval, an
// elicitation); when it runs out, the call under way is cancelled with
// the limit's *LimitError as its context's cause. The "CPU time" is
// elapsed time while the script computes (not while it waits for a
// call), not the processor's time: a busy machine spends it sooner. goja
// checks it between instructions, while the script runs and while its
// value (or what it threw) is serialized, where a getter or toJSON runs
// too; one built-in operation is not interrupted (JSON.stringify of a
// value nested 100,000 deep takes goja many seconds), so a script still
// computing a second past its budget has its process end itself. The
// arguments limit is counted in the child, on each call's JSON, before
// the call is sent: a call past it is never run nor stored.
//
// Text is what the model reads of a script's run; it leaves out the
// base64 of the images, audio and files the script printed or returned
// whole (a model reads no picture in base64), and Content adds the images
// and audio as parts of their own (Media), which reach the model as a
// direct call's images do.
//
// List and Declare describe the functions to the model: one line each, and
// a TypeScript-style declaration generated from a tool's input and output
// schemas, with the schemas' descriptions (and a field's format, bounds
// and default) as comments; a $ref within a schema is a named type
// declared after the function. describe_function's answer is cut at
// MaxDescribeBytes.
//
// The chat engine (app/chat/codemode.go) offers the three tools and
// decides each call a script makes as it decides a direct call.
//
// See Example.
package codemode
