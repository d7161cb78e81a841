// Package chat runs conversations between a model and the user's MCP tools:
// the tool loop (stream the model, run the tools it asks for — in parallel,
// after approval — feed the results back, until it answers or a step limit is
// hit), approvals, and the routing of server-initiated requests (sampling,
// elicitation) to the person at the screen.
//
// Models are reached through [provider]; tools through the router
// (anything with Tools and Call); every message is persisted through a
// History as it completes, so a crash never loses an acknowledged message;
// an answer that streams longer than a second has its words so far written
// each second, so a crash mid-answer keeps what the user saw.
// A step's tool calls are stored pending with its answer, before they run;
// their results go into the next step's message write (one transaction a
// step, overlapping the model request), or, when the turn ends after them,
// into one last write. A call the app stopped in (a crash, a kill) thus
// stays without its result, though it may have run: the model is told so,
// and to check before calling it again. Each call of a step has an id of
// its own (a model's repeated id is renamed), and each request sends every
// call's id once (a local server's `call_0` at every step is renamed with
// its result), as the APIs require.
//
// See Example for one turn with a tool call, from the model's request to the
// stored answer.
//
// # Chat and approvals
//
// Providers live in `config.json` under `settings.chat.providers` (`name`, `kind`: `openai` |
// `anthropic` | `ollama` | `local` (the model on this computer, below), `baseUrl`,
// `defaultModel`, `apiKey` as `${secret:NAME}` only). The
// model sees every active tool as `server__tool` (sanitized to the 64 characters of
// `[a-zA-Z0-9_-]` providers accept; a name that had to change gets a short hash; one over 64
// characters is cut in its server's part first, so the tool's name stays; a server's name with
// nothing left of it, "サーバー", is `server_` and a hash of it, a tool's such name the hash). Names are
// unique across servers. A server whose own name holds `__` always gets a hash on its tool
// names: server `a__b` with tool `c` is `a__b__c_8a954b`, so it can never take (and rename)
// `a__b__c`, the name of server `a`'s tool `b__c`, nor move the approval policy set on it.
// When two tools would still share a name (cut to 64 characters alike) each of them gets `_`
// and 6 hex digits of a hash of its own server and tool name, so a server added later cannot
// take over the name another server's tool had, nor the approval policy or pin set on it. Every call goes to the server and tool
// the model was offered, and that server's and tool's policy decides whether to ask. The
// model may call several tools at once and the loop runs until it answers or 12 tool steps
// (`settings.chat.maxSteps`), then says it stopped. A server's progress notifications for a
// running call (each call carries a progressToken) come out as progress events
// (`EventProgress`: progress, total, message), at most four a second per call and none after
// the call returned: the window's card draws a bar (or the message and count), `switchboard
// chat` a status line on stderr (one line written over on a terminal, else a line every
// few seconds).
// Tool schemas per provider. Each tool's input schema is translated, as a request is made,
// into the JSON Schema its provider accepts, so one tool's schema cannot fail every request of
// a chat: one object at the top level for every provider (a top-level `anyOf`/`oneOf` of object
// shapes becomes one object with every shape's properties, requiring what all of them require,
// its description naming the alternatives; an `allOf` is merged); for Gemini's OpenAI-compatible
// endpoint (`generativelanguage.googleapis.com`) its OpenAPI subset (`$ref`s inlined, a cycle cut
// after one round; `nullable` for `["string","null"]`; `const` as a one-value `enum`; other
// keywords and formats moved into the description); for Ollama the fields its API reads, the
// rest described; for an OpenAI-compatible server on this machine or the local network
// (llama.cpp, LM Studio) what llama.cpp can turn into a grammar (no `$ref`, `not`,
// `if`/`then`/`else`; patterns anchored); OpenAI's arrays get `items`. The model's arguments are
// then checked against the server's own schema: a mismatch goes back to the model naming the
// field, without calling the server or asking you. Should a provider still refuse a tool's
// definition, its error names the tool and its server and says to turn that tool off in the
// chat's Tools menu. With Anthropic, the tool definitions and
// the system prompt are marked for prompt caching, so the later steps of a chat read them from
// the cache (the usage counts the cached tokens).
// Long chats stay within the model's context window (`app/chat/fit.go`):
//
//   - Context window. Each model's window comes from the provider's model list (Anthropic,
//     OpenRouter, vLLM; LM Studio's *loaded* context from its `/api/v0/models`; a llama.cpp
//     server's `n_ctx` from `/props`; Ollama's `/api/show`), for a provider configured in
//     Settings and one named on the command line alike (`--provider ollama --base-url URL`),
//     else what is known of its family, else from the number in the first context-length
//     error the provider sends; Settings → Chat → Long chats → Context windows overrides it
//     per model (`settings.chat.providers[].contextWindows`, `"model": tokens`), `switchboard
//     chat --context-window N` per run; a context-length error stating a smaller window than
//     the one in use (one set larger than the model's) wins over both for the rest of the
//     chat, and the meter's event says so once (`switchboard chat` prints it). Where none is
//     known the chat is kept under an assumed 32,000 tokens, and the meter and `switchboard
//     chat` say so and where to set it.
//   - Context meter. Before every step the request is estimated (system prompt, tool
//     definitions, conversation, tool results; ASCII at 4 bytes a token, other characters a
//     token each), scaled per chat by the input tokens the provider reports: a report above
//     the scale is taken at once, one below moves it halfway; before the first report the
//     estimate is taken 1.4 times over. Each answer keeps its request's estimate beside the
//     reported count (`history.db`, schema v4), so a chat continued by another CLI run or
//     after a restart is measured as before. Near the limit the built-in local model's
//     llama-server counts the request exactly (`/apply-template`, `/tokenize`). The chat
//     header shows used / window as a gauge; its popover says what takes the space and offers
//     Compact now. `switchboard chat` prints a line when it summarises.
//   - Compaction. Past `settings.chat.compactAt` percent of the window (80 by default),
//     earlier turns' tool results first shrink to one-line stubs, from the oldest, in one
//     large step (to three quarters of the limit, kept by later steps, so a prompt cache keeps
//     its prefix), then the chat's own model summarises the earlier turns (in pieces that fit
//     its window; if it cannot, a plain list of what you asked stands in; Stop while it writes
//     stores none, your message staying, its turn stopped) into a summary message: the chat
//     shows it collapsed where it was written, the model reads it instead of the messages it
//     covers, and those stay in `history.db`, search and exports. The turn in
//     progress — your message, its calls and results — stays verbatim after the summary; if it
//     alone does not fit, its own results become stubs one at a time, the oldest first, so a
//     step of many results keeps its latest whole (capped ones keep their handle)
//     and the meter and `switchboard chat` say how many results are stubs. A stub of a result
//     the model saw says to call the tool again if it needs it; one the model never saw (stubbed
//     before its first look: its step is the latest, or the turn ended after it) is set aside
//     instead: kept like a capped result (`read_result`), its stub saying the tool ran already
//     and not to call it again, since the tool may have deleted, sent or paid; the stored result
//     records it (`_meta["io.switchboard/aside"]`), so the stub stays so when the chat is read
//     again. A message that would go past the limit is
//     stored after the summary, so it reaches the model whole. A request over the window is
//     never sent (to Ollama, which cuts a long prompt silently, the provider itself refuses
//     to send one over the model's context); a provider's context-length error (OpenAI's
//     `context_length_exceeded`, Anthropic's "prompt is too long", llama.cpp's context size)
//     summarises and retries once, counting as high as the error says from then on. The
//     retry answers into the refused attempt's message, so a refusal it mends is neither
//     stored nor shown; one it does not is stored once, saying whether the earlier messages
//     were summarised and where the window is set (Settings → Chat → Long chats → Context
//     windows, `--context-window N`).
//   - Capped results. A tool result (a code-mode script's output and a skill's file that
//     `load_skill` reads are results too) over its budget — `settings.chat.resultShare` percent
//     of the window (15 by default) or 24,000 characters, whichever is less; per tool or server
//     in `settings.chat.resultBudgets` (`"server__tool"` / `"server__*"`: characters); a tool's
//     `_meta["anthropic/maxResultSizeChars"]` raises it up to half the window — reaches the
//     model as its first lines and a handle: the result is kept for that chat alone (a content
//     store of its own in `<data dir>/results`), and the model reads on with `read_result` (`id`,
//     `fromLine`, up to 200 lines a call) or searches it (`id` and `query`); that tool, which the
//     app answers itself, is offered whenever the conversation holds a handle, and it reaches
//     that chat's kept results only — not another chat's, not the content store's, and no
//     server's tool. Lines longer than 1,000 bytes are kept cut in pieces, so a result that is one
//     huge line (minified JSON, base64) is read a page at a time too; the first lines the model
//     sees are the result's own text (no break added), its note says that read_result returns
//     long lines in pieces whose breaks are not part of the result, and a read_result page is
//     the whole lines that fit the result budget, so its note always says where to read on. At most
//     `settings.chat.keepMB` megabytes of one result are kept (Settings → Chat → Long chats →
//     Keep at most, 4 MB by default, 1–64): the rest is dropped, and the model's note and the
//     card say how much. Kept results are not offered by `switchboard serve` or `switchboard
//     builtin content-store` (no built-in server opens that folder) and are deleted with their
//     chat. A handle is the app's own record: a `_meta["io.switchboard/kept"]` a server puts in
//     its result is removed, so it can add no tool. The tool card shows the result, marked
//     *capped*, a window of 50,000 characters at a time (Show more), says which lines the model
//     saw and what was dropped, and marks the character where the model's view ended.
//   - Cost per step. The engine keeps each chat's messages since its last summary, each
//     converted once for the model; a step neither reads the history again nor converts it
//     (`make bench`: a step at message 1,000 costs what one at message 10 does). It keeps
//     them for the KeptConversations chats used last; another chat is read again at its next
//     turn, so a day of chats does not stay in memory until the app closes. Tool
//     definitions go in one order (by name), so the request's prefix stays the same from step
//     to step.
//
// Approval policy per tool (`settings.chat.policies`, keys
// `server__tool` as the model sees it, or `server__*` with the configured server name,
// values `ask` / `allow` / `deny`): by default read-only tools (MCP `readOnlyHint`) run,
// everything else asks; the workspace's file writes run without asking only in the fresh
// workspace Switchboard made itself. These defaults, the workspace folder chosen in Settings and
// the chat set-up (agent, prompt, step limit, tool search) are the same for the window and for
// `switchboard chat` / `tools call`: both run the one core (see ARCHITECTURE.md). A 401 says which key to fix; a
// 429 is retried after the provider's `Retry-After` (shown in the chat, whose Retry now ends the
// wait: `Engine.RetryNow`); a stream that breaks
// keeps what arrived and marks the message incomplete.
// Retry and edit-and-resend are one operation of the core (`chat.Turn.From`): the chat is taken
// back to a user message — its text replaced for an edit — and every later message and tool
// call is deleted in one `history.db` transaction (a crash leaves the chat as it was or rewound,
// never half-deleted), then the model answers from there. A failed answer's stored error is the
// plain sentence, a blank line, then the provider's technical detail.
// An answer never makes the window load or open anything by itself (a model that read a
// hostile tool result could otherwise send the chat away in an image URL): remote images in
// its Markdown show as a placeholder whose button opens the image in your browser, links open
// in your browser on click only, and the window's Content-Security-Policy refuses remote
// images, scripts, styles, fonts and connections; images and audio from tools arrive as
// `data:` URLs.
//
// # Agents, tool search and delegation
//
// Agents live in `settings.chat.agents` (`id`, `name`, `system`, `provider`, `model`, `servers`,
// optional `tools` (`server__tool`) to narrow them, `policies` over the global ones, `toolMode`
// and `delegate`). LoadSettings checks them all (agent.go): two agents sharing an id or a name
// (in any case), one without either, a tool outside its servers, a bad policy or tool mode, a
// name with control or bidirectional characters are refused at their JSON path, so PutAgent
// never replaces another agent; a name is at most MaxAgentName characters when saved. When a chat has more than 40 active tools (`settings.chat.toolSearchAbove`;
// negative turns it off), the model first gets `find_tools`: a bleve index over every tool's
// name, description and parameters; the tools it finds (plus `settings.chat.pinned`) are
// attached to its next step. Tools a server adds while a turn runs (a call that enables a
// toolset, then `notifications/tools/list_changed`) are offered from the turn's next step,
// under the turn's policies and tool choice (what is switched off stays off); a turn that
// searched goes on searching, the new tools in the index. In delegate mode each server is one tool, `ask_<server>`
// `{query, context}`, that runs a sub-agent with only that server's tools and a system
// prompt listing them, followed by the turn's system prompt (the agent's) marked as the
// instructions the assistant follows, since the specialist does the work they are about; the
// sub-agent's calls follow the same approvals and appear nested under the card, and its steps
// are kept in the call's result (`Delegation`). A delegation that ends early — Stop, or the
// specialist's model failing — keeps the steps made so far, each with how it ended, and the
// result's text lists them for the parent model, so it does not take the whole delegation for
// undone and repeat what ran. Its duration leaves out the time its calls waited for approval.
//
// # Code mode
//
// A turn's tool mode (`Turn.Tools`: `settings.chat.tools`, an agent's `toolMode`, a chat's
// own choice or the CLI's `--tools`; by default `code` for a model whose context window is
// at most 32k tokens, else `direct`) decides how the servers' tools reach the model: as
// themselves (`direct`), as code mode's three tools (`code`), or both. In code mode the
// model calls `list_functions` (server, tool, one-line purpose), `describe_function` (a
// TypeScript-style declaration generated from the input and output schemas) and
// `run_script`: JavaScript, the body of an async function, run by `mcpmanager/codemode` in
// a child process of the app with limits (`settings.chat.codeMode`: `wallSeconds`,
// `cpuSeconds`, `memoryMB`, `maxCalls`, `maxArgsKB`, `maxOutputKB`). Each call the script makes goes
// through the same path as the model's direct call (`codemode.go` → `call`): withheld
// tools, the schema check, the rules, the policy and the approval card (which names the
// script: `ApprovalRequest.Parent`, `Script`); a refused call throws inside the script,
// which may catch it. The calls appear nested under the script's card (events with
// `Parent`), the script's result (`ScriptResult`: value, printed lines, calls) is kept
// like any capped result when it is long, and the model reads only what the script
// printed and returned (an image it passed on as an image, as a direct call's, not as
// base64 text). `find_tools`, skills and delegation are no functions; MCP Apps'
// own tools are none either.
package chat
