// Package shell runs named, persistent shells in pseudo-terminals that a
// model and a person share: the model runs commands with Exec and gets
// their plain-text output and exit status; a terminal emulator (xterm.js
// on the Workspace page) attaches to the same session, sees the model's
// commands live and types its own.
//
//	pool := shell.NewPool(shell.Options{Dir: root, Env: shell.MinimalEnv("")})
//	defer pool.Close(ctx)
//	s, err := pool.Session("default")
//	res, err := s.Exec(ctx, "cd src && go test ./...", 2*time.Minute)
//	fmt.Println(res.Output, res.ExitCode, res.Cwd)
//
//	history, ch, cancel := s.Attach()      // a terminal attaches
//	term.Write(history)
//	for b := range ch { term.Write(b) }     // raw bytes, colours included
//	s.Write([]byte("ls\r"))                 // the user's keystrokes
//	s.Resize(40, 132)
//
// # How a command runs
//
// Each shell (bash, else sh) starts with an init script of ours instead of
// the user's profile and rc files, with only the environment in Options
// (MinimalEnv: PATH, HOME, USER, LANG, TERM), so secrets in the app's
// environment or the user's rc files are not exposed. Exec writes the
// command to a file in a private directory and types one short line that
// sources it between two markers: OSC escape sequences carrying a random
// id and the exit status (the working directory goes back in a file, so
// any byte of its name survives). Terminals ignore them, so an attached
// terminal shows the typed line and the output only; the typed line reads
// "(model) " and the command's first line there, not the marker function
// and its id, and the shell's messages name no private file ("bash: line
// 1: …", as for a typed line), for the model either. Keys typed into a
// shell that was just started wait for its first prompt. Sourcing
// runs the command in the shell itself (cd and export persist) and keeps
// the command out of the line editor: tabs, newlines, quotes and heredocs
// arrive as written, and a syntax error ends only that command.
//
// # Timeouts and stopping
//
// When a command runs past its timeout, or its caller gives up, the shell
// is interrupted first (SIGINT to the shell and to the terminal's
// foreground job), so it abandons the command's file and typed line
// before any further statement runs, builtins included; then every process
// the command started is killed (on Linux found through /proc: the
// shell's session and its descendants, minus what ran before the command;
// elsewhere the terminal's foreground process group). The shell's prompt
// (it carries a marker too) says it is back; if it does not come within
// StopWait, a no-op command checks the shell answers, and if it does not
// within SettleTimeout it is replaced (working directory and variables
// are lost, which the Result says). A command that made the shell itself
// ignore SIGINT (trap "" INT; told from /proc on Linux) would go on with
// its next statements once its processes are killed, so the shell is
// killed first and replaced instead (Result.IgnoredInterrupt). Only a
// command that traps SIGINT with a handler of its own goes on to its end;
// its Result has TimedOut and its exit code. A command that replaces the
// shell (exec) can no longer print the end marker: replaced by another
// shell, which would wait for input for ever, the session starts a new
// shell at once; by another program, at the timeout (Result.Replaced;
// checked every ExecPoll on Linux). Processes that start a session of
// their own and lose their parent (daemons) escape this tracking.
// Session.Close hangs up and terminates every process of the shell's
// session, then kills what remains after KillGrace.
package shell
