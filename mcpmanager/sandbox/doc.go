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
package sandbox
