// Package sandbox runs a stdio MCP server with only what it needs in
// sight: the system read-only, its own program read-only, a private home
// and temp, the folders its entry lists, and no network unless allowed.
//
// Prepare turns a process.Spec into one that starts the same server inside
// the sandbox. What the sandboxed server sees:
//
//   - the system (/usr, /bin, /lib*, /etc, /opt, …) read-only;
//   - its program, the interpreter its "#!" line names, and the package
//     folder of each (the prefix above a bin/ folder, or the nearest folder
//     with package.json, pyproject.toml, go.mod, … — the project holding a
//     node_modules folder), read-only;
//   - every file or folder an argument names that exists (also the value
//     of --flag=/path), and a file argument's package folder, read-only —
//     except "/", the home folder and the folders above it, which are
//     never opened by an argument;
//   - the working directory (Spec.Dir) read-only; without one, the server
//     starts in its private home;
//   - a private, empty, writable home at the path of $HOME and a private
//     /tmp, both gone when it stops: the user's real home (keys, tokens,
//     browser profiles) is not there;
//   - its roots as Policy.RootsAccess says (read-only by default: what it
//     wrote there, a git hook or a package script, the unsandboxed
//     workspace shell could later run);
//   - AllowRead read-only and AllowWrite read-write;
//   - no network (a network namespace of its own with only loopback, so
//     127.0.0.1 on the host is not reachable either) unless Network;
//   - an environment of the variables its entry sets (Policy.Env) and the
//     short KeptEnv list, not the app's: no token of the user's or of
//     Switchboard's reaches it.
//
// Every folder is resolved at every start, and bound where it really is.
// A start is refused (ErrEscape, one sentence naming the folder) when a
// folder leads to the home whole, to "/" or to a folder holding the
// app's data (Policy.Private) — whatever its spelling, "~/", "~/..", a
// link, /proc/self/cwd — or goes through a symbolic link inside a folder
// the server may write: a link it may have made on an earlier start to
// reach, on this one, what it was not given. A program in a bin/ folder
// right inside the home (~/.cargo/bin, ~/.local/bin) brings its own file,
// not that shared prefix with its tokens and keyrings.
//
// A deeper mount wins over the one above it, so a program inside an
// AllowWrite folder stays read-only; for the same path, read-write wins.
// The roots are bound at start: roots changed while the server runs are
// visible to it from its next start.
//
// npx and uvx would download their package when the server starts, which
// a sandbox without network cannot do. Prepare fetches the package first,
// outside the sandbox, into its own cache folder (CacheDir: npm install
// --prefix, or uv venv + uv pip install), once, and runs the package's
// program from there: the sandboxed server needs no network to start.
// Delete the cache folder to fetch a newer version.
//
// On Linux the sandbox is bubblewrap (bwrap; Debian's "bubblewrap"
// package): new user, mount, PID, IPC, UTS, cgroup and (without Network)
// network namespaces, no capabilities, its own session, and it dies with
// its parent. Without bwrap, or where it cannot create namespaces,
// Prepare fails with a sentence saying what to install or enable: a
// server is never started outside the sandbox it asked for. On macOS it is
// sandbox-exec with a generated profile of the same rules (Profile; the
// private home and temp are fresh folders under the system temp folder,
// and HOME and TMPDIR point at them). On Windows and other systems Prepare
// fails with ErrUnsupported.
//
// On Linux each sandboxed server runs under limits set inside the sandbox
// by prlimit (util-linux): MaxProcesses processes and threads (not
// enforced by the kernel when the app runs as root) and MaxDataBytes of
// data memory per process.
//
// What it does not do: limit CPU or the memory of all its processes
// together, filter system calls, hide other processes' abstract Unix
// sockets when Network is true (they live in the network namespace), or
// stop a server running as root from reading root-owned system files
// under /etc.
//
// # Sandboxed servers
//
// A local (stdio) server whose entry says `"sandbox": true` — or `"sandbox": {"network":
// false, "allowRead": ["~/notes"], "allowWrite": ["/srv/data"], "roots": "read"}` — runs in a
// sandbox (turn it on under Details on the Servers page, where a sandboxed badge then
// marks the row, with the import wizard's "Run the imported local servers in a sandbox", or
// with `servers import --sandbox`; `servers list` shows it in the SANDBOX column). On Linux
// the sandbox is bubblewrap (`bwrap`, Debian's `bubblewrap`) and exactly this holds:
//
//   - the system (`/usr`, `/bin`, `/sbin`, `/lib*`, `/etc`, `/opt`) is there read-only;
//   - the server's program, the interpreter its `#!` line names, and the package folder of
//     each (the prefix above a `bin/` folder, or the project holding its `package.json` /
//     `pyproject.toml` / `go.mod` and `node_modules`) are read-only — except that a program in a
//     `bin/` folder right inside your home (`~/.cargo/bin`, `~/.local/bin`, `~/go/bin`) brings
//     only its own file (and, through a link, its own package), never that shared prefix with
//     its registry tokens, keyrings and shell history;
//   - every file or folder an argument names that exists (also `--flag=/path`), and a file
//     argument's package folder, are read-only — but an argument never opens `/`, your home
//     folder or a folder above it;
//   - the working directory (`cwd`) is read-only; without one the server starts in its home;
//   - its home (at the same path as yours, `$HOME`) and `/tmp` are empty, private and
//     writable, and gone when it stops: your real home — keys, tokens, browser profiles — is
//     not visible, nor is anything else of the file system not listed here;
//   - its roots (the folders its arguments name, else the workspace, or its entry's `roots`)
//     are read-only, read-write with `"roots": "write"`, or absent with `"roots": "none"`;
//     they are bound at start, so a sandboxed server restarts when its roots change. Read-only
//     by default because the workspace is shared with things that run outside any sandbox: a
//     file a sandboxed server wrote there — a `.git/hooks/pre-commit`, a `package.json` script,
//     a `Makefile` — the workspace shell (unsandboxed) would run on the next `git commit` or
//     `npm test`. Closing that in the shell (no hooks, no rc files) would still leave every
//     build file; not letting the server write there unless you say so closes all of them;
//   - `allowRead` folders are read-only and `allowWrite` folders read-write (full paths or
//     `~/…`; a missing one stops the start with its name). A deeper entry wins over the one
//     holding it (a program inside an `allowWrite` folder stays read-only); for the same path,
//     read-write wins;
//   - no network unless `"network": true`: it has a network namespace of its own, so neither
//     the internet nor a port on `127.0.0.1` of your machine is reachable;
//   - its environment is the variables its entry sets plus `PATH`, `LANG`, `LANGUAGE`, `LC_*`,
//     `TERM`, `TZ`, `USER`, `LOGNAME`, the proxy variables and `SSL_CERT_FILE` /
//     `SSL_CERT_DIR` / `NODE_EXTRA_CA_CERTS`, with `HOME` and `TMPDIR` at its private folders —
//     nothing else of Switchboard's environment (no `OPENAI_API_KEY`, `GITHUB_TOKEN`,
//     `SWITCHBOARD_SERVE_TOKEN`, D-Bus address…); give it a variable in its entry's `env`;
//   - at most 512 processes and threads at once and 4 GiB of data memory per process (set
//     inside the sandbox with `prlimit` from util-linux, so only its own processes count; the
//     kernel does not apply the process limit when Switchboard itself runs as root);
//   - new user, PID, IPC, UTS and cgroup namespaces, no capabilities, its own session (no
//     terminal to type into), and it dies with Switchboard.
//
// Every folder is resolved at every start and bound where it really is, and the start is
// refused with one sentence naming the folder (the server stays in error with it on the
// Servers page) when it leads to your home folder whole, to `/`, or to a folder holding
// Switchboard's data folder — whatever the spelling: `~/`, `~/.`, `~/..`, `${env:HOME}`, a
// symbolic link, `/proc/self/cwd` — or when it goes through a symbolic link inside a folder the
// server may write (an `allowWrite` folder, writable roots): such a link may be the server's
// own doing, made on one start to reach your home on the next. Remove the link or name the
// folder it points to. A workspace set to your home folder is refused the same way for a
// sandboxed server that would get it as its roots: choose a folder inside your home as the
// workspace, or set the server's sandbox roots to `none`.
//
// `npx` and `uvx` would download their package at start, which a sandbox without network
// cannot do: before each sandboxed start the package is fetched outside the sandbox, once,
// into `~/.cache/switchboard/sandbox/` (`npm install --prefix …`, or `uv venv` + `uv pip
// install`), and the package's program runs from there, read-only, with `node` (or the
// virtualenv's Python) — so a sandboxed server needs no network to start. Delete that folder
// to fetch a newer version. npx options other than `-y`, `-p`/`--package`, `-q`, and uvx
// options other than `--from`, `--with`, `--python` are refused with a sentence saying so.
//
// When bubblewrap is missing, the server stays in error saying "bubblewrap is not installed:
// install it (apt install bubblewrap) or turn the server's sandbox off" (likewise for
// `prlimit`: "install util-linux"), and when the kernel
// forbids it user namespaces, saying how to allow them: a server that asked for a sandbox is
// never started without one. On macOS the same rules are written as a `sandbox-exec` profile
// (everything denied, then reading the same folders, writing the writable ones, the network
// only with `network`; its private home and temp are fresh folders under the system temp
// folder, with `HOME` and `TMPDIR` pointing at them) — generated and tested as text, not yet
// run on a Mac; the process and memory limits are not set there. On Windows a sandboxed
// server does not start: "sandboxed servers are not supported on this system yet".
//
// Servers that are not sandboxed inherit Switchboard's environment (your shell's,
// with `PATH` widened to your login shell's) and their entry's `env` — except Switchboard's
// own secrets: `SWITCHBOARD_*` (the `serve` token) and the provider keys the CLI reads,
// `OPENAI_API_KEY` and `ANTHROPIC_API_KEY`, are never passed on (set one in the entry's
// `env` if a server needs it). They can read and write whatever your user can.
//
// What the sandbox does not do: limit CPU or the memory of all its processes together,
// filter system calls, hide the abstract
// Unix sockets of your session (X11, D-Bus) when `network` is true (they live in the network
// namespace), or keep a server that runs as root (when Switchboard itself runs as root) from
// reading root-only files under `/etc`. Metadata of files (not their contents) outside the
// allowed folders is visible on macOS. A remote server's `sandbox` is ignored with a
// warning.
//
// The built-in servers (`content-store`, `workspace`) run inside Switchboard and are
// supervised the same way: they show their state on the Servers page, keep a log in
// `logs/<name>.log`, and one that cannot start (its store held by another Switchboard, say)
// stays in error with the reason until you restart it. Their tool calls may take up to 30
// minutes (adding a large folder is one call). Their names are reserved, in any case: an
// import marks a server with such a name invalid, `servers add` refuses it, and one already
// in `config.json` (or a `--config` file) is not started: it is listed apart as
// `NAME (configured)`, in error saying to rename it, on the Servers page and on stderr of
// `switchboard tools list`, while the built-in keeps its name and tools.
package sandbox
