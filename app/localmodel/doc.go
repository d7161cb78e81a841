// Package localmodel runs a model on this computer: llama.cpp's
// llama-server as a supervised child process with a random API key, which
// the chat engine reaches through the OpenAI-compatible provider it already
// has. Start waits until the model is loaded; a crash is restarted with
// backoff (Status says so meanwhile); Close stops it in stages.
//
// Only the app may reach it. The key is handed over in llama-server's
// environment (LLAMA_API_KEY), which only this user can read, never in its
// argv, which every local user can (ps, /proc/PID/cmdline). On Unix it
// listens on a Unix socket in a directory only this user can enter
// (endpoint_unix.go), so neither another user nor a web page in the
// browser can connect; on Windows, on a loopback port behind a proxy in the
// app that refuses what a browser sends (guard.go, endpoint_windows.go).
// Requests must therefore go through HTTPClient:
//
//	s, err := localmodel.Start(ctx, localmodel.Options{Binary: bin, Model: "qwen3-1.7b.gguf", LogPath: log})
//	defer s.Close(ctx)
//	p, _ := provider.New(provider.Config{Kind: provider.KindOpenAI, Name: "On this computer", BaseURL: s.BaseURL(), APIKey: s.APIKey(), HTTPClient: s.HTTPClient()})
//
// # The model on this computer
//
// With no account, no key and neither Ollama nor LM Studio, the app runs a model itself: the
// provider On this computer (`kind: local`). Its runtime is llama.cpp's `llama-server`, of
// the llama.cpp release the `node-llama-cpp` npm package ships (3.22.1, MIT). On Linux
// `build/llama/build.sh` compiles only `llama-server` (and `llama-bench`) against the
// libraries prebuilt in `@node-llama-cpp/linux-x64`, a few minutes on 2 cores, once, cached in
// `~/.cache/switchboard/llama-node-llama-cpp-3.22.1-linux-x64/bin/` with the libraries beside
// it, and the packages ship it so (`/usr/lib/switchboard/` in the `.deb`);
// `$SWITCHBOARD_LLAMA_SERVER` points at another. From the source tree, `make run` builds it
// (`make llama` alone, once). Among those libraries is ggml's CPU backend once per x86-64
// generation (`libggml-cpu-x64.so`, `-sse42`, `-sandybridge`, `-haswell`, … `-zen4`), of
// which `llama-server` loads the best this CPU runs when it starts, so it runs on every
// x86-64 CPU; its log names the one it loaded (`load_backend: loaded CPU backend from
// …/libggml-cpu-haswell.so`), and so does Settings → Models (`CPUVariants`,
// `Status.CPU`). The Windows runtime is compiled from source, statically, for CPUs with AVX2,
// FMA and BMI2 (2013 on), as the macOS one is for its CPU family's baseline; on an older
// CPU the app says so and points to Ollama or LM
// Studio instead of crashing. Nothing runs until a chat sends it a message: then the app starts
// `llama-server` as a child process with a random API key, with the
// model the chat names, waits until it is loaded (the chat says *Loading … on this
// computer*), and speaks to it over the OpenAI wire the other providers use. Only the app
// can reach it: the key is handed over in `llama-server`'s environment (`LLAMA_API_KEY`, which
// only your user can read), never on its command line (which every user on the computer sees
// in `ps`); on Linux and macOS it listens on a Unix socket in a directory only your user may
// enter (`$TMPDIR/switchboard-llama-*/llama.sock`, mode 0700, removed when it stops), on no
// TCP port, so no web page in your browser can send it a request — `llama-server` itself
// answers any `Origin` and any `Host`. On Windows it listens on a free loopback port behind
// a small proxy in the app, on a loopback port of its own, that refuses any request with an
// `Origin` or `Sec-Fetch-Site` header (a browser's), a `Host` other than its own
// `127.0.0.1:PORT` or `localhost:PORT` (DNS rebinding) and a request without the key, before
// `llama-server` sees it. It is fitted to
// the machine (`app/localmodel/fit.go`): threads from the CPUs (one fewer than the cores on 4 or fewer, since llama.cpp's threads
// wait for each other on a busy core; else half),
// and the longest context — a power of two from 4,096 up to 32,768 and the model's own limit —
// whose KV cache fits in 60 % of the free memory (on macOS, of half the memory) beside the weights (every part
// of a model split in parts), in f16, or in q8_0 (about
// half the memory) when that gives a longer one and f16 would stay under 16,384 — q8_0 only for a model whose
// attention heads are whole blocks of 32 values, since llama.cpp refuses it for others (Phi-2's heads of 80) and
// the model would never start; such a model keeps f16, at a shorter context when memory is short. The chat
// engine is told that context, so the meter, compaction and result budgets work as with any
// model; tool search turns on above 8 tools and attaches at most 3 per search, since a small
// model chooses worse among many (your own tool search setting wins). Settings → Models
// shows what it runs, the context it chose and what that costs in memory, its log
// (`logs/local-model.log`, beside the servers' logs), Stop to free the memory, and sets
// the context size and threads (`settings.chat.local.context`, `.threads`; 0 fits them);
// `switchboard models status` says the same from the terminal, with the runtime's path and CPU
// backends. A model that does not load (llama-server exits with status 1, which says nothing)
// is said in words from the lines it logged (LoadError: a file cut short, a split model's later
// part or a missing part, an unknown architecture, memory; else the line itself quoted), and the
// log's path once. A GGUF file you add (Settings → Models → Choose a GGUF file…, `models add`) is
// checked first as llama.cpp loads it (CheckModel: a split model's first part, its parts beside it
// each saying its place, every tensor's data inside its file), so one that cannot run is refused
// saying what to do; those Ollama and LM Studio keep are offered as found, an Ollama blob named as
// Ollama names it. Thinking is off (Qwen3's hidden reasoning would cost minutes on a CPU before the first
// word) and an answer stops at half the context (a small model that loops would fill it). A tool call
// llama.cpp cannot read out of the model's text (a small model garbles one now and then) is kept
// as an incomplete answer that says so and offers Retry. A
// crash is restarted with backoff; a message sent meanwhile, or one whose answer was cut off by
// the crash (the process is asked, Server.Down: its exit reaches the supervisor a moment after the
// broken answer), gets *the model on this computer stopped and is starting again: send your message
// again in a moment*. It stops 15 minutes after its last request and with the app. An app killed
// outright (SIGKILL) leaves its socket's directory; the next start removes those of apps that are gone.
//
// # What decides what runs
//
// Every input that chooses the runtime binary or a model file, and who can set it:
//
//   - `$SWITCHBOARD_LLAMA_SERVER` — what it decides: the `llama-server` binary,
//     before the search below — set by: the environment the app itself was
//     started with
//   - the search order: beside `switchboard`, `../lib/switchboard/`, the build
//     cache — what it decides: the binary when the variable is unset — set by:
//     where the app is installed (`localmodel.FindRuntime`)
//   - `settings.chat.local.downloadUrl` (Settings → Models → download URL,
//     `models url`) — what it decides: where a catalog model is downloaded from
//     — never which bytes are accepted: each file is held to the SHA-256 pinned
//     in the app's catalog, checked again on the file installed — set by: you,
//     in the window or the CLI
//   - `settings.chat.local.files` (Choose a GGUF file…, `models add`) — what it
//     decides: a GGUF file of yours that runs as a model — set by: you, in the
//     window or the CLI
//   - `$SWITCHBOARD_MODEL_CATALOG` — what it decides: replaces the pinned
//     catalog (for tests) — set by: the app's environment
//
// None of these can come from outside: an import (`servers import`, the wizard, a discovered
// config) takes only a file's servers, never its `settings`; a registry entry and a bundle
// become one server entry each; and a server's `env` reaches only that server's own process,
// not the app's (`TestImportCannotPointTheLocalRuntimeElsewhere`). The runtime's own
// environment drops your `LLAMA_ARG_*` variables, so none of them reaches it either.
//
// # Speed on this machine
//
// Measured by `BENCH_LLAMA_THREADS=1 make bench-llama` on this 2-core Debian machine (AMD EPYC,
// no GPU) with one thread, while other work ran on it (BENCHMARKS.md has the rows and how they
// are measured), on models of Qwen3's shapes with random 4-bit (Q4_0) weights, which run at a
// real model's speed: Qwen3-0.6B streams the first token of the answer to a 132-token prompt
// after 5.5 s and then writes 12 tokens a second (the prompt at 24 tokens/s); Qwen3-1.7B
// takes 17 s to the first token and writes 5 tokens a second (the prompt at 8 tokens/s).
// `llama-server`'s peak memory with a 4,096-token context is 1.2 GB for the 0.6B model and
// 2.4 GB for the 1.7B (the KV cache is 448 MB of each; a quantised KV cache halves that). The
// server runs at 0.86–1.08× of llama.cpp's own `llama-bench` on the same files. With 2 threads on 2 busy cores llama.cpp's OpenMP threads wait for each other
// at every step (generation fell to 0.3–1.7 tokens/s in `llama-bench`), so a busy laptop does
// better with one thread fewer than its cores.
//
// Why `llama-server` and not yzma. yzma (`github.com/hybridgroup/yzma` v1.28.0) would run
// llama.cpp inside the app's process, without cgo, from `@node-llama-cpp/linux-x64` 3.22.1's
// prebuilt libraries. It is not faster: on the same 0.6B file, one thread, in the same minute,
// it generated 8.1 tokens/s and `llama-bench` 8.3 (same llama.cpp release, same kernels; a
// busier minute than the figures above). What
// decides is what `llama-server` already does and the app would otherwise have to write and
// keep up: the model's own chat template (Jinja), tool calls parsed from the model's text into
// OpenAI `tool_calls` with a grammar that forces valid arguments (yzma's come back as strings),
// reasoning split from the answer, the prompt cache between turns of a chat, and the OpenAI
// wire the app's provider already speaks. And a crash (a bad GGUF, an out-of-memory) ends a child
// process that is restarted, not the app with the user's chats open.
package localmodel
