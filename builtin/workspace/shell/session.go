package shell

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Limits and timeouts; variables so tests (and the app) can change them
// before starting sessions.
var (
	// DefaultTimeout is how long Exec lets a command run when the caller
	// gives no timeout.
	DefaultTimeout = 60 * time.Second
	// MaxTimeout caps the timeout a caller may ask for.
	MaxTimeout = 10 * time.Minute
	// MaxOutput is how many bytes of a command's output Exec keeps for the
	// model: the first and the last half, with a notice between.
	MaxOutput = 64 << 10
	// ScrollbackBytes is how much recent raw output a session keeps for a
	// terminal that attaches later.
	ScrollbackBytes = 256 << 10
	// SubscriberBytes is how far a subscriber may fall behind before its
	// oldest pending output is dropped.
	SubscriberBytes = 1 << 20
	// KillGrace is how long each stage of stopping processes waits: after
	// the hang-up and terminate signals before killing, and after killing.
	KillGrace = 2 * time.Second
	// StopWait is how long a stopped command's shell has, once it was
	// interrupted and the command's processes were killed, to print its end
	// marker (only a command that traps SIGINT goes on to it) before it is
	// checked with a no-op command.
	StopWait = 500 * time.Millisecond
	// SettleTimeout is how long a shell has, after a timed-out command was
	// stopped, to answer again before it is replaced by a new one.
	SettleTimeout = 3 * time.Second
	// PromptWait bounds how long keystrokes and commands for a shell that
	// was just started wait for its first prompt, so they are shown after
	// it rather than before.
	PromptWait = 3 * time.Second
	// ExecPoll is how often a running command is checked for having
	// replaced the shell (exec), where that can be told (Linux).
	ExecPoll = 250 * time.Millisecond
)

// The size a shell starts with, until a terminal attached to it resizes it.
const (
	DefaultRows = 30
	DefaultCols = 120
)

// Options configures the shells of a session.
type Options struct {
	// Dir is the directory each shell starts in.
	Dir string
	// Env is the shells' whole environment; nil means MinimalEnv(""). SHELL
	// is set to the shell used.
	Env []string
	// Shell is the path of the shell: bash, or a POSIX sh that reads $ENV
	// when interactive (dash, busybox sh). Empty: bash from Env's PATH, else sh.
	Shell string
}

// Info describes a session, for a list of terminals.
type Info struct {
	Name  string `json:"name"`
	Shell string `json:"shell"`
	// PID is the shell's process id; 0 while no shell runs (the last one
	// exited; the next command or keystroke starts another).
	PID int `json:"pid"`
	// Running is true while a command from Exec (the model's) runs.
	Running     bool      `json:"running"`
	Subscribers int       `json:"subscribers"`
	Started     time.Time `json:"started"`
}

// Result is the outcome of one Exec.
type Result struct {
	// Output is what the command printed (stdout and stderr, as a terminal
	// shows them) as plain text: escape sequences removed, at most about
	// MaxOutput bytes.
	Output string `json:"output"`
	// OmittedBytes is how much output was left out of the middle of Output.
	OmittedBytes int64 `json:"omittedBytes,omitempty"`
	// ExitCode is the command's exit status ($?); -1 if it was stopped
	// before it finished.
	ExitCode int `json:"exitCode"`
	// Cwd is the shell's working directory after the command.
	Cwd string `json:"cwd,omitempty"`
	// TimedOut: the command ran past its timeout and was stopped.
	TimedOut bool `json:"timedOut,omitempty"`
	// ShellExited: the command ended the shell (exit, exec, set -e); the
	// next command starts a new shell.
	ShellExited bool `json:"shellExited,omitempty"`
	// Restarted: the shell was replaced by a new one, its working
	// directory and variables lost: after a timeout it did not answer, it
	// ignored the interrupt (IgnoredInterrupt), or the command replaced it
	// (Replaced).
	Restarted bool `json:"restarted,omitempty"`
	// IgnoredInterrupt: the command had made the shell ignore SIGINT
	// (trap '' INT), so the shell was replaced to stop it instead of
	// letting it go on with its next statements.
	IgnoredInterrupt bool `json:"ignoredInterrupt,omitempty"`
	// Replaced is the command line of the program the command replaced
	// the shell with (exec), which cannot report the command's end. When
	// that program is itself a shell, which would wait for input for ever,
	// the session is restarted at once.
	Replaced string `json:"replaced,omitempty"`
}

// Session is one named, long-lived shell in a pseudo-terminal, shared by
// the model (Exec) and the user's terminal (Attach, Write, Resize). When
// its shell exits, the next Exec or Write starts a new one in Options.Dir;
// subscribers stay attached across shells.
//
// All methods are safe for concurrent use. Exec runs one command at a
// time per session (later calls wait their turn); output is delivered to
// subscribers and the model from one reader goroutine, which never waits
// for a subscriber.
type Session struct {
	name      string
	opts      Options
	shell     string
	clearLine string        // keys that empty the line being edited at the prompt
	run       chan struct{} // holds a token while an Exec runs

	mu         sync.Mutex
	proc       *proc
	closed     bool
	started    time.Time
	rows, cols uint16
	scroll     []byte
	subs       map[*subscriber]struct{}
	capture    *capture
	// execDir is where Exec's commands run: where the last one left off
	// ("" before the first, and after the shell was replaced: Options.Dir).
	// The user's terminal moving about the shared shell never changes it,
	// and Exec puts the terminal back where the user was.
	execDir string

	procWG    sync.WaitGroup // reader and watcher goroutines of every shell
	subWG     sync.WaitGroup // subscriber goroutines
	closeOnce sync.Once
}

// proc is one shell process and its terminal.
type proc struct {
	cmd    *exec.Cmd
	master *os.File
	pid    int
	dir    string        // private directory: init script and command files
	exited chan struct{} // closed once the shell has been waited for
	status int           // exit status, once exited
	state  string        // "exit status 1", "signal: killed"
	done   chan struct{} // closed once everything of the shell is released
	ready  chan struct{} // closed at the shell's first prompt (or once PromptWait passed waiting for it)
	scan   []byte        // output's last bytes before the first prompt (a marker split between reads)
	once   sync.Once     // closes ready
}

// markReady notes that the shell showed its first prompt, or will not be
// waited for any longer.
func (p *proc) markReady() { p.once.Do(func() { close(p.ready) }) }

// Start starts a session's first shell.
func Start(name string, opts Options) (*Session, error) {
	if opts.Env == nil {
		opts.Env = MinimalEnv("")
	}
	sh := opts.Shell
	if sh == "" {
		pathList := envValue(opts.Env, "PATH")
		var err error
		if sh, err = LookPath("bash", pathList); err != nil {
			if sh, err = LookPath("sh", pathList); err != nil {
				return nil, &StartError{Op: "find shell", Path: pathList,
					Err: fmt.Errorf("%w: neither bash nor sh is on the PATH (%s); install one or fix the PATH", ErrNoShell, pathList)}
			}
		}
	}
	// Readline (bash) rings the bell on ^U at an empty line but not on
	// ^A ^K; sh reads lines in the terminal's canonical mode, where ^U
	// (VKILL) erases the line and ^A ^K would be typed as characters.
	clearLine := "\x15"
	if filepath.Base(sh) == "bash" {
		clearLine = "\x01\x0b"
	}
	s := &Session{
		name: name, opts: opts, shell: sh, clearLine: clearLine,
		run:  make(chan struct{}, 1),
		rows: DefaultRows, cols: DefaultCols,
		subs: make(map[*subscriber]struct{}),
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.startLocked(); err != nil {
		return nil, err
	}
	return s, nil
}

// Name is the session's name.
func (s *Session) Name() string { return s.name }

// initScript defines the marker function __sb, run for every command
// typed by Exec: it moves to the directory the model's last command left
// off in (the ID.cwd file: that directory, then the workspace as a
// fallback), prints the start marker, sources the command's file in the
// shell itself (so cd and export persist, and a syntax error ends only
// that command), writes $PWD to the ID.pwd file, prints the end marker
// with $?, and goes back to the directory the user's terminal was in.
// Directories travel in files, quoted for the shell on the way in and as
// they are on the way out, so any byte of a name survives: a newline
// would end a line read with read, a BEL the end marker. The user's cd and the model's
// cd thus never move each other, while both see every command.
//
// A POSIX sh (dash) differs in two ways it works around: a syntax error in
// a sourced file abandons the whole typed line, so the file is checked
// with "sh -n" first; and notices of finished jobs would be printed inside
// the next command's output, so they are collected before its start marker.
//
// The shell names the sourced file in its messages ("bash: /tmp/…/ID.sh:
// line 1: …"); the session leaves that private path out of what the model
// and the terminal get (display), so they read as for a typed line.
func initScript(dir, shell string) string {
	ps1, check, jobs := promptMarker+`$ `, "", "\tjobs >/dev/null 2>&1\n"
	if filepath.Base(shell) == "bash" {
		ps1, jobs = `\[`+promptMarker+`\]\w \$ `, ""
	} else {
		check = shellQuote(shell) + ` -n < "$__sb_dir/$__sb_id.sh" && ` // on stdin: its messages name no file
	}
	return fmt.Sprintf(`unset ENV HISTFILE
HISTCONTROL=ignorespace
PS1='%s'
__sb_dir=%s
__sb() {
	__sb_id=$1
	shift
	__sb_user=$PWD
	. "$__sb_dir/$__sb_id.cwd"
	cd -- "$__sb_to" >/dev/null 2>&1 || cd -- "$__sb_home" >/dev/null 2>&1
%s	printf '\033]7770;S;%%s\007' "$__sb_id"
	%s. "$__sb_dir/$__sb_id.sh"
	__sb_rc=$?
	printf '%%s' "$PWD" >| "$__sb_dir/$__sb_id.pwd"
	printf '\033]7770;E;%%s;%%s\007' "$__sb_id" "$__sb_rc"
	cd -- "$__sb_user" >/dev/null 2>&1
}
`, ps1, shellQuote(dir), jobs, check)
}

// shellQuote quotes s as one word for sh: any byte but NUL stands for
// itself between single quotes.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// startLocked starts a shell; s.mu is held.
func (s *Session) startLocked() (*proc, error) {
	if s.closed {
		return nil, ErrClosed
	}
	dir, err := os.MkdirTemp("", "switchboard-shell-")
	if err != nil {
		return nil, &StartError{Op: "prepare", Path: os.TempDir(), Err: err}
	}
	bash := filepath.Base(s.shell) == "bash"
	initFile := filepath.Join(dir, "init.sh")
	if err := os.WriteFile(initFile, []byte(initScript(dir, s.shell)), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, &StartError{Op: "prepare", Path: dir, Err: err}
	}
	master, tty, err := openPTY(s.rows, s.cols)
	if err != nil {
		os.RemoveAll(dir)
		return nil, &StartError{Op: "start", Path: s.shell, Err: fmt.Errorf("open a terminal: %w", err)}
	}
	env := withEnv(s.opts.Env, "SHELL", s.shell)
	var cmd *exec.Cmd
	if bash {
		cmd = exec.Command(s.shell, "--noprofile", "--rcfile", initFile, "-i")
	} else {
		cmd = exec.Command(s.shell, "-i")
		env = withEnv(env, "ENV", initFile)
	}
	cmd.Dir, cmd.Env = s.opts.Dir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = ptyAttrs()
	err = cmd.Start()
	tty.Close() // the shell has its own copy; ours would keep the terminal open after it exits
	if err != nil {
		master.Close()
		os.RemoveAll(dir)
		return nil, &StartError{Op: "start", Path: s.shell, Err: err}
	}
	p := &proc{cmd: cmd, master: master, pid: cmd.Process.Pid, dir: dir,
		exited: make(chan struct{}), done: make(chan struct{}), ready: make(chan struct{})}
	readerDone := make(chan struct{})
	s.procWG.Add(2)
	go s.read(p, readerDone)
	go s.watch(p, readerDone)
	s.proc, s.started = p, time.Now()
	return p, nil
}

// current returns the running shell, starting one if the last exited.
func (s *Session) current() (*proc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("shell session %q: %w", s.name, ErrClosed)
	}
	if s.proc != nil && !closed(s.proc.exited) {
		return s.proc, nil
	}
	return s.startLocked()
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// read copies the shell's output to the scrollback, the subscribers and
// the running Exec until the terminal closes.
func (s *Session) read(p *proc, done chan<- struct{}) {
	defer s.procWG.Done()
	defer close(done)
	buf := make([]byte, 32<<10)
	for {
		n, err := p.master.Read(buf)
		if n > 0 {
			s.output(p, buf[:n])
		}
		if err != nil {
			return // EIO once nothing holds the terminal, ErrClosed after watch closed it
		}
	}
}

// watch waits for the shell to exit, then stops what it left running in
// its session and releases the terminal.
func (s *Session) watch(p *proc, readerDone <-chan struct{}) {
	defer s.procWG.Done()
	_ = p.cmd.Wait()
	p.status, p.state = p.cmd.ProcessState.ExitCode(), p.cmd.ProcessState.String()
	close(p.exited)
	terminate(p.pid, p.master, KillGrace)
	// The reader ends (EIO) once it has read the last output and nothing
	// holds the terminal any more; closing the master before would lose
	// that output. A process that escaped terminate may still hold it.
	t := time.NewTimer(KillGrace)
	select {
	case <-readerDone:
	case <-t.C:
	}
	t.Stop()
	p.master.Close()
	<-readerDone
	os.RemoveAll(p.dir)
	s.mu.Lock()
	if !s.closed {
		s.broadcastLocked([]byte(fmt.Sprintf("\r\n[shell exited (%s); a command or a key starts a new one]\r\n", p.state)))
	}
	s.mu.Unlock()
	close(p.done)
}

func (s *Session) output(p *proc, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !closed(p.ready) {
		p.scan = append(p.scan, b...)
		if bytes.Contains(p.scan, []byte(promptMarker)) {
			p.markReady()
			p.scan = nil
		} else {
			p.scan = p.scan[max(0, len(p.scan)-(len(promptMarker)-1)):]
		}
	}
	c := s.capture
	if c != nil && c.p == p {
		c.feed(b)
	}
	s.broadcastLocked(display(c, p, b))
}

// display is output b of shell p as a person's terminal shows it, while
// Exec's capture c runs: the line Exec typed (" __sb ID # preview") reads
// "(model) preview", padded to the same width so the shell's idea of the
// cursor stays true, and the private path of the command's file is left
// out of the shell's messages. Both are done within one read; what a read
// splits (rare: the line arrives whole) is shown as it came.
func display(c *capture, p *proc, b []byte) []byte {
	if c == nil || c.p != p {
		return b
	}
	if c.typed != nil {
		if i := bytes.Index(b, c.typed); i >= 0 {
			b = slices.Concat(b[:i], c.shown, b[i+len(c.typed):])
			c.typed = nil
		}
	}
	if bytes.Contains(b, c.fileRef) {
		b = bytes.ReplaceAll(b, c.fileRef, nil)
	}
	return b
}

// awaitPrompt waits, for at most PromptWait, until shell p printed its
// first prompt (or exited). A shell that shows none in that time is not
// waited for again.
func awaitPrompt(p *proc) {
	if closed(p.ready) {
		return
	}
	t := time.NewTimer(PromptWait)
	defer t.Stop()
	select {
	case <-p.ready:
	case <-p.exited:
	case <-t.C:
		p.markReady()
	}
}

func (s *Session) broadcastLocked(b []byte) {
	s.scroll = append(s.scroll, b...)
	if len(s.scroll) > 2*ScrollbackBytes { // trim now and then, not on every write
		s.scroll = append([]byte(nil), s.scroll[len(s.scroll)-ScrollbackBytes:]...)
	}
	for sub := range s.subs {
		sub.push(b)
	}
}

// EffectiveTimeout is the timeout Exec applies when asked for d:
// DefaultTimeout for 0 or less, at most MaxTimeout.
func EffectiveTimeout(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultTimeout
	}
	return min(d, MaxTimeout)
}

// Exec runs command in the session's shell as if typed at its prompt
// (multi-line scripts included) and returns its output once it ends, or
// once timeout (0: DefaultTimeout; at most MaxTimeout) or ctx ends it.
// Then the shell is interrupted, so no further statement of the command
// runs, every process the command started is killed, and the shell is
// replaced if it still does not answer. A shell the command made ignore
// SIGINT is replaced at once instead, before it could go on; a command
// that traps SIGINT with a handler of its own goes on to its end (its
// Result then has TimedOut and an exit code other than -1). A command that
// replaces the shell with another shell (exec bash) gets a new session at
// once. The shell's working directory and variables persist between
// commands. Exec fails with a *BusyError when a program started from the
// terminal holds its foreground, or replaced the shell there.
func (s *Session) Exec(ctx context.Context, command string, timeout time.Duration) (Result, error) {
	if strings.TrimSpace(command) == "" {
		return Result{}, fmt.Errorf("%w: pass the command line to run", ErrEmptyCommand)
	}
	timeout = EffectiveTimeout(timeout)
	select {
	case s.run <- struct{}{}:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	defer func() { <-s.run }()
	p, err := s.current()
	if err != nil {
		return Result{}, err
	}
	awaitPrompt(p)
	if fg, err := foreground(p.master); err == nil && fg > 0 && fg != p.pid {
		return Result{}, &BusyError{Session: s.name, PID: fg, Program: procName(fg)}
	}
	if prog := replacedBy(p); prog != "" { // typed in the terminal: exec bash, exec python3
		return Result{}, &BusyError{Session: s.name, PID: p.pid, Program: prog + ", which replaced the shell (exec),"}
	}
	before := snapshot(p.pid)
	c, err := s.begin(p, command, MaxOutput)
	if err != nil {
		return Result{}, err
	}
	res, ctxErr := s.await(ctx, p, c, before, timeout)
	s.mu.Lock()
	switch {
	case res.ShellExited || res.Restarted:
		s.execDir = "" // a new shell: the next command starts in the workspace, as the result says
	case res.Cwd != "":
		s.execDir = res.Cwd
	case res.TimedOut || ctxErr != nil:
		// Stopped inside the command, before __sb went back to the user's
		// directory: the shell is where the command left it ("." stays there).
		s.execDir = "."
	}
	s.mu.Unlock()
	return res, ctxErr
}

// await waits for the command of c to end, or stops it at timeout or when
// ctx ends, and collects its result.
func (s *Session) await(ctx context.Context, p *proc, c *capture, before map[int]bool, timeout time.Duration) (Result, error) {
	var res Result
	ctxErr := s.wait(ctx, p, c, timeout, &res)
	switch {
	case c.finished() || closed(p.exited):
	case res.Replaced != "":
		// What replaced the shell cannot end the command: a new shell.
		s.replace(p)
		res.Restarted = true
	case (res.TimedOut || ctxErr != nil) && ignoresInterrupt(p.pid):
		// trap '' INT: an interrupt would not stop the shell going on with
		// the command's next statements once its processes are killed.
		s.replace(p)
		res.Restarted, res.IgnoredInterrupt = true, true
	case res.TimedOut || ctxErr != nil:
		s.stop(p, c, before)
	}
	if !c.finished() && closed(p.exited) {
		<-p.done // the reader has passed on all the shell printed
	}
	if c.finished() && !c.abandoned {
		res.Cwd = c.pwd()
	}
	s.finish(c)
	c.flush()
	res.Output, res.OmittedBytes = c.out.Text()
	res.Output = strings.ReplaceAll(res.Output, string(c.fileRef), "")
	if c.abandoned {
		// The shell starts a new line when interrupted; the command did not print it.
		res.Output = strings.TrimSuffix(res.Output, "\n")
	}
	switch {
	case c.finished():
		res.ExitCode = c.exit
	case res.Restarted:
		res.ExitCode = -1
	case closed(p.exited):
		res.ShellExited, res.ExitCode = true, p.status
	default:
		res.ExitCode = -1
		res.Restarted = s.settle(p)
	}
	return res, ctxErr
}

// wait waits until the command of c ends, the shell exits, timeout passes
// (res.TimedOut) or ctx ends (its error), checking now and then whether
// the command replaced the shell (res.Replaced): by another shell, it
// returns at once, since that one would wait for input for ever.
func (s *Session) wait(ctx context.Context, p *proc, c *capture, timeout time.Duration, res *Result) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var tick <-chan time.Time
	if canTellExec {
		t := time.NewTicker(ExecPoll)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-c.done:
			return nil
		case <-p.exited:
			return nil
		case <-timer.C:
			res.TimedOut = true
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-tick:
			if prog := replacedBy(p); prog != "" {
				res.Replaced, tick = prog, nil
				if isShell(prog) {
					return nil
				}
			}
		}
	}
}

// replacedBy is the command line of the program shell p was replaced with
// (exec), "" while it is still the shell started (or cannot be told).
func replacedBy(p *proc) string {
	if !closed(p.ready) || closed(p.exited) {
		return "" // before its first prompt the shell may not have started yet
	}
	cl := commandLine(p.pid)
	if cl == "" || cl == strings.Join(p.cmd.Args, " ") {
		return ""
	}
	return cl
}

// isShell reports whether the command line runs an interactive shell.
func isShell(cmdline string) bool {
	prog, _, _ := strings.Cut(cmdline, " ")
	switch strings.TrimPrefix(filepath.Base(prog), "-") { // a login shell's name starts with "-"
	case "bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "tcsh", "csh", "nu", "pwsh", "elvish", "xonsh":
		return true
	}
	return false
}

// stop ends a command that ran past its timeout or whose caller gave up,
// so that it runs no further statement. The shell is interrupted first
// (SIGINT to it and to the foreground job, as ^C would, but also when a
// program put the terminal in raw mode): bash and dash then abandon the
// whole command file they are sourcing, and the typed line, as soon as the
// running statement ends. Only then is everything the command started
// killed, which ends that statement even when a program ignores SIGINT.
// Killing first would let the shell go on with the rest of the script,
// builtins, rm and all, before any ^C reached it.
//
// An abandoned command prints no end marker, but the shell then prints its
// prompt, which ends the capture; a command that traps SIGINT itself may
// still reach its end marker. If neither comes within StopWait, settle
// checks the shell answers.
func (s *Session) stop(p *proc, c *capture, before map[int]bool) {
	s.mu.Lock()
	c.interrupt()
	s.mu.Unlock()
	interrupt(p.pid, p.master)
	killNew(p.pid, before, p.master, KillGrace)
	t := time.NewTimer(StopWait)
	defer t.Stop()
	select {
	case <-c.done:
	case <-p.exited:
	case <-t.C:
	}
}

// begin writes command to a file in the shell's directory and types the
// line that runs it. The line starts with keys that clear anything typed
// at the prompt but not entered, and a space, which keeps it out of the
// history.
func (s *Session) begin(p *proc, command string, limit int) (*capture, error) {
	id := newID()
	s.mu.Lock()
	dir := cmp.Or(s.execDir, s.opts.Dir)
	s.mu.Unlock()
	files := map[string]string{
		".sh":  command + "\n",
		".cwd": "__sb_to=" + shellQuote(dir) + "\n__sb_home=" + shellQuote(s.opts.Dir) + "\n",
		".pwd": "", // made here, so that the command's umask or noclobber cannot stop __sb writing it
	}
	for ext, content := range files {
		if err := os.WriteFile(filepath.Join(p.dir, id+ext), []byte(content), 0o600); err != nil {
			removeFiles(p.dir, id)
			return nil, fmt.Errorf("shell session %q: write the command file: %w", s.name, err)
		}
	}
	typed := " __sb " + id + preview(command)
	c := newCapture(p, id, limit)
	c.typed, c.shown = []byte(typed), []byte(shownAs(typed, command))
	c.fileRef = []byte(filepath.Join(p.dir, id+".sh") + ": ") // as __sb sources it: "$__sb_dir/$__sb_id.sh"
	s.mu.Lock()
	s.capture = c
	s.mu.Unlock()
	if _, err := p.master.Write([]byte(s.clearLine + typed + "\r")); err != nil {
		s.finish(c)
		return nil, fmt.Errorf("shell session %q: type the command: %w", s.name, err)
	}
	return c, nil
}

// finish stops feeding c and removes its files (a shell still sourcing
// the command file keeps it open).
func (s *Session) finish(c *capture) {
	s.mu.Lock()
	if s.capture == c {
		s.capture = nil
	}
	s.mu.Unlock()
	removeFiles(c.p.dir, c.id)
}

// removeFiles removes the files of command id.
func removeFiles(dir, id string) {
	for _, ext := range []string{".sh", ".cwd", ".pwd"} {
		os.Remove(filepath.Join(dir, id+ext))
	}
}

// settle brings the shell back to its prompt after a stopped command kept
// it busy: ^C what runs in the shell itself and check the shell answers;
// if it does not, replace it. It reports whether the shell was replaced.
func (s *Session) settle(p *proc) bool {
	_, _ = p.master.Write([]byte{0x03})
	for range 3 { // a line typed while ^C is being handled may be discarded
		if s.answers(p, SettleTimeout/3) {
			return false
		}
	}
	s.replace(p)
	return true
}

// replace kills shell p first, so it runs nothing more, then everything
// else of its session (the shell's watch does that), and starts a new
// shell in its place.
func (s *Session) replace(p *proc) {
	signal(p.pid, killSignal)
	<-p.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == p {
		_, _ = s.startLocked() // on failure the next command tries again
	}
}

// answers runs a no-op command and reports whether it ended within d.
func (s *Session) answers(p *proc, d time.Duration) bool {
	c, err := s.begin(p, ":", 1024)
	if err != nil {
		return false
	}
	defer s.finish(c)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.done:
		return true
	case <-p.exited:
	case <-t.C:
	}
	return false
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// preview is a comment showing the command's first line on the typed line,
// so a person watching the terminal sees what runs. Characters readline or
// history expansion would act on are blanked.
func preview(command string) string {
	line, _, more := strings.Cut(strings.TrimSpace(command), "\n")
	var b strings.Builder
	n := 0
	for _, r := range line {
		if n == 60 {
			more = true
			break
		}
		if !unicode.IsPrint(r) || r == '!' || r == '\\' {
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return ""
	}
	if more {
		text += " …"
	}
	return " # " + text
}

// shownAs is what a terminal shows for the line typed to run command:
// "(model)" and the preview, padded to the typed line's width.
func shownAs(typed, command string) string {
	shown := " (model)"
	if p := preview(command); p != "" {
		shown += " " + strings.TrimPrefix(p, " # ")
	}
	return shown + strings.Repeat(" ", max(0, len(typed)-len(shown)))
}

// Write types p into the terminal, as the user's keystrokes. A shell that
// exited is restarted first, and p typed once it shows its prompt.
func (s *Session) Write(p []byte) error {
	pr, err := s.current()
	if err != nil {
		return err
	}
	awaitPrompt(pr) // a shell just started: the keys show after its prompt, not before
	if _, err := pr.master.Write(p); err != nil {
		return fmt.Errorf("shell session %q: write to the terminal: %w", s.name, err)
	}
	return nil
}

// Resize sets the terminal's size; programs in it are told (SIGWINCH).
func (s *Session) Resize(rows, cols uint16) error {
	if rows == 0 || cols == 0 {
		return fmt.Errorf("shell session %q: terminal size %dx%d: rows and columns must be positive", s.name, rows, cols)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return fmt.Errorf("shell session %q: %w", s.name, ErrClosed)
	}
	s.rows, s.cols = rows, cols
	p := s.proc
	s.mu.Unlock()
	if p == nil || closed(p.exited) {
		return nil // the next shell starts with this size
	}
	if err := setSize(p.master, rows, cols); err != nil && !closed(p.exited) {
		return fmt.Errorf("shell session %q: resize the terminal: %w", s.name, err)
	}
	return nil
}

// Scrollback returns the most recent raw output (up to ScrollbackBytes),
// escape sequences included, to replay in a terminal.
func (s *Session) Scrollback() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scrollbackLocked()
}

func (s *Session) scrollbackLocked() []byte {
	b := s.scroll
	if len(b) > ScrollbackBytes {
		b = b[len(b)-ScrollbackBytes:]
	}
	return append([]byte(nil), b...)
}

// Subscribe returns a channel of the session's raw output from now on
// (escape sequences included, for a terminal emulator) and a function that
// ends the subscription and closes the channel. A slow reader gets output
// coalesced, never blocking the shell; the channel closes when the session
// does.
func (s *Session) Subscribe() (<-chan []byte, func()) {
	_, ch, cancel := s.Attach()
	return ch, cancel
}

// Attach is Scrollback and Subscribe at once, with nothing lost or
// repeated between the history and the first output on the channel.
func (s *Session) Attach() (history []byte, ch <-chan []byte, cancel func()) {
	sub := newSubscriber()
	s.mu.Lock()
	history = s.scrollbackLocked()
	if s.closed {
		s.mu.Unlock()
		close(sub.out)
		return history, sub.out, func() {}
	}
	s.subs[sub] = struct{}{}
	s.subWG.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.subWG.Done()
		sub.loop()
	}()
	return history, sub.out, func() {
		s.mu.Lock()
		delete(s.subs, sub)
		s.mu.Unlock()
		sub.stop()
	}
}

// PID is the running shell's process id, 0 if none runs.
func (s *Session) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil || closed(s.proc.exited) {
		return 0
	}
	return s.proc.pid
}

// Info describes the session.
func (s *Session) Info() Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	info := Info{Name: s.name, Shell: s.shell, Running: len(s.run) > 0, Subscribers: len(s.subs), Started: s.started}
	if s.proc != nil && !closed(s.proc.exited) {
		info.PID = s.proc.pid
	}
	return info
}

// Close ends the session: its shell and every process in the shell's
// session get SIGHUP, SIGTERM and SIGCONT, then SIGKILL after KillGrace;
// Close waits for them (or for ctx) and closes the subscribers' channels.
func (s *Session) Close(ctx context.Context) error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		p := s.proc
		s.mu.Unlock()
		if p != nil {
			s.procWG.Add(1)
			go func() {
				defer s.procWG.Done()
				terminate(p.pid, p.master, KillGrace)
			}()
		}
	})
	done := make(chan struct{})
	go func() {
		s.procWG.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return fmt.Errorf("close shell session %q: %w", s.name, ctx.Err())
	}
	s.mu.Lock()
	subs := s.subs
	s.subs = map[*subscriber]struct{}{}
	s.mu.Unlock()
	for sub := range subs {
		sub.stop()
	}
	s.subWG.Wait()
	return nil
}
